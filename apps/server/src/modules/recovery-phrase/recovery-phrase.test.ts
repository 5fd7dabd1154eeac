import { wordlist } from '@scure/bip39/wordlists/english.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeFor,
  createTestApp,
  errorOf,
  newSession,
  type SignedInUser,
  sessionCookie,
  type TestApp,
  tableText,
  verifiedCustomer,
  withoutChange,
} from '../../../test/helpers';

let t: TestApp;
let user: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await verifiedCustomer(t);
});
afterAll(async () => {
  await t.close();
});

const readPhrase = (cookie: string) => call(t, { url: '/api/recovery-phrase', cookie });
const generate = (cookie: string) =>
  call(t, { method: 'POST', url: '/api/recovery-phrase/generate', cookie });
const unlock = (cookie: string, password: string) =>
  call(t, { method: 'POST', url: '/api/recovery-phrase/unlock', cookie, body: { password } });

describe('viewing the recovery phrase (DEVIATIONS S1, S3)', () => {
  it('asks for the password first', async () => {
    for (const res of [await readPhrase(user.cookie), await generate(user.cookie)]) {
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toEqual({
        error: 'PASSWORD_REQUIRED',
        message: 'Enter your password to see your recovery phrase.',
      });
    }
  });

  it('stays locked after a wrong password', async () => {
    const res = await withoutChange(t, () => unlock(user.cookie, 'Not-My-Password-1'));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res)).toEqual({
      error: 'INVALID_CREDENTIALS',
      message: 'The password you entered is incorrect.',
    });
    expect((await readPhrase(user.cookie)).json().error).toBe('PASSWORD_REQUIRED');
  });

  it('shows the owner their twelve BIP-39 words after the right password', async () => {
    expect((await unlock(user.cookie, user.password)).statusCode).toBe(200);
    const res = await readPhrase(user.cookie);
    expect(res.statusCode).toBe(200);
    const { phrase } = res.json();
    expect(phrase).toBe(user.seedPhrase);
    const words: string[] = phrase.split(' ');
    expect(words).toHaveLength(12);
    for (const word of words) expect(wordlist).toContain(word);
  });

  it('never replaces an existing phrase: generating again returns the same one', async () => {
    await unlock(user.cookie, user.password);
    const res = await withoutChange(t, () => generate(user.cookie));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ phrase: user.seedPhrase, created: false });
  });

  it('opens for ten minutes, and only in the session where the password was entered', async () => {
    await unlock(user.cookie, user.password);
    const device = await newSession(t, user);
    const verified = await call(t, {
      method: 'POST',
      url: '/api/2fa/verify',
      cookie: device,
      body: { code: codeFor(user, 1) },
    });
    expect(verified.statusCode).toBe(200);
    expect((await readPhrase(sessionCookie(verified))).json().error).toBe('PASSWORD_REQUIRED');

    await t.services.pool.query(
      "UPDATE sessions SET phrase_unlocked_until = now() - interval '1 second' WHERE user_id = $1",
      [user.userId],
    );
    expect((await readPhrase(user.cookie)).json().error).toBe('PASSWORD_REQUIRED');
  });

  it('keeps the phrase encrypted at rest: its words appear nowhere in the table', async () => {
    const stored = await tableText(t, 'user_seed_phrases');
    const words = (user.seedPhrase ?? '').split(' ');
    expect(stored).toContain(user.userId);
    expect(stored).not.toContain(words.join(' '));
    // Ciphertexts and hashes hold no spaces, so no two words of the phrase can sit side by side.
    for (let i = 1; i < words.length; i++)
      expect(stored).not.toContain(`${words[i - 1]} ${words[i]}`);
  });

  it('gives every user a phrase of their own', async () => {
    const other = await verifiedCustomer(t);
    expect(other.seedPhrase).toMatch(/^[a-z]+( [a-z]+){11}$/);
    expect(other.seedPhrase).not.toBe(user.seedPhrase);
  });
});
