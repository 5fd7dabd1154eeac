import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecrets, randomToken } from './crypto';

const secrets = createSecrets(randomBytes(32));

/** Flips one bit of the byte at `index` of a ciphertext's binary part. */
function tamper(ciphertext: string, index: number): string {
  const raw = Buffer.from(ciphertext.slice('v1:'.length), 'base64');
  raw[index] = (raw[index] ?? 0) ^ 0x01;
  return `v1:${raw.toString('base64')}`;
}

describe('encryption at rest', () => {
  it('decrypts what it encrypted, including non-ASCII text', () => {
    const plaintext = 'abandon ability able – 12 words, ünïcödé';
    expect(secrets.decrypt(secrets.encrypt(plaintext))).toBe(plaintext);
  });

  it('never gives the same ciphertext twice and never contains the plaintext', () => {
    const a = secrets.encrypt('JBSWY3DPEHPK3PXP');
    const b = secrets.encrypt('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
  });

  it('refuses a ciphertext altered anywhere: nonce, tag or body', () => {
    const ciphertext = secrets.encrypt('a secret worth keeping');
    for (const index of [0, 12, 28, 30]) {
      expect(() => secrets.decrypt(tamper(ciphertext, index))).toThrow();
    }
  });

  it('refuses a ciphertext made under another key, or of an unknown version', () => {
    const other = createSecrets(randomBytes(32));
    expect(() => secrets.decrypt(other.encrypt('hello'))).toThrow();
    expect(() => secrets.decrypt(secrets.encrypt('hello').replace(/^v1:/, 'v2:'))).toThrow(
      'Unknown ciphertext version',
    );
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createSecrets(randomBytes(16))).toThrow();
  });
});

describe('keyed hash', () => {
  it('is stable for the same purpose and value, and differs when either changes', () => {
    const h = secrets.keyedHash('recovery-phrase', 'abandon ability');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets.keyedHash('recovery-phrase', 'abandon ability')).toBe(h);
    expect(secrets.keyedHash('recovery-phrase', 'abandon abilitY')).not.toBe(h);
    expect(secrets.keyedHash('backup-code', 'abandon ability')).not.toBe(h);
  });

  it('depends on the key: another server key gives another hash', () => {
    const other = createSecrets(randomBytes(32));
    expect(other.keyedHash('recovery-phrase', 'abandon ability')).not.toBe(
      secrets.keyedHash('recovery-phrase', 'abandon ability'),
    );
  });
});

describe('random tokens', () => {
  it('are 256 bits, URL-safe and different every time', () => {
    const tokens = new Set(Array.from({ length: 100 }, randomToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });
});
