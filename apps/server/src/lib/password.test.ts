import { legacyPasswordHash } from '@server-test/legacy-password';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password';

// This file tests scrypt's real cost (or the hashing pool's queue, which needs hashes that
// take as long as in production): the cheaper test cost (decision 0038) is put back.
beforeAll(() => {
  vi.stubEnv('COFFER_TEST_SCRYPT_N', '');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const PASSWORD = 'Correct-Horse-9';

describe('password hashing', () => {
  it('verifies the password it hashed and refuses any other', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword('correct-horse-9', stored)).toBe(false);
    expect(await verifyPassword(`${PASSWORD} `, stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('stores a salted scrypt hash that contains no trace of the plaintext', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(stored).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    expect(stored).not.toContain(Buffer.from(PASSWORD).toString('hex'));
    // A random salt: the same password never gives the same stored form.
    expect(await hashPassword(PASSWORD)).not.toBe(stored);
  });

  it('refuses against a stored value that is not one of its hashes', async () => {
    expect(await verifyPassword(PASSWORD, PASSWORD)).toBe(false);
    expect(await verifyPassword(PASSWORD, 'bcrypt$1$2$3$c2FsdA==$aGFzaA==')).toBe(false);
    // Parameters scrypt would refuse, or that would take the server minutes, are not ours.
    expect(await verifyPassword(PASSWORD, 'scrypt$1000$8$1$c2FsdA==$aGFzaA==')).toBe(false);
    expect(await verifyPassword(PASSWORD, 'scrypt$1048576$8$1$c2FsdA==$aGFzaA==')).toBe(false);
  });

  it('hashes with N=2^17, r=8, p=1, and records them in the hash', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
    expect(needsRehash(stored)).toBe(false);
  });

  it('still verifies a hash made with the old N=2^15, and marks it for an upgrade', async () => {
    const old = legacyPasswordHash(PASSWORD);
    expect(old.split('$')[1]).toBe('32768');
    expect(await verifyPassword(PASSWORD, old)).toBe(true);
    expect(await verifyPassword('Correct-Horse-8', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });
});
