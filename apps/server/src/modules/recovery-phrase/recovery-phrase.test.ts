import { RECOVERY_PHRASE_MSG } from '@coffer/shared';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { createLogger } from '@server/infra';
import {
  call,
  codeFor,
  createTestApp,
  errorOf,
  newSession,
  promotedCustomer,
  type SignedInUser,
  sessionCookie,
  signIn,
  type TestApp,
  tableText,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Every line the app logs, whatever its level: a phrase must never be among them. */
const logLines: string[] = [];

let t: TestApp;
let user: SignedInUser;
beforeAll(async () => {
  t = await createTestApp(
    {},
    createLogger('trace', { write: (line: string) => logLines.push(line) }),
  );
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
const confirm = (cookie: string, phrase: string) =>
  call(t, { method: 'POST', url: '/api/recovery-phrase/confirm', cookie, body: { phrase } });
const holdOf = (cookie: string) =>
  call(t, { url: '/api/security/hold', cookie }).then((r) => r.json());

async function confirmedAtOf(userId: string): Promise<Date | null> {
  const { rows } = await t.services.pool.query<{ confirmed_at: Date | null }>(
    'SELECT confirmed_at FROM user_seed_phrases WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.confirmed_at ?? null;
}

async function securityEventsOf(userId: string): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ kind: string }>(
    'SELECT kind FROM security_events WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  return rows.map((r) => r.kind);
}

/** The hold's time runs out (as if security_hold_hours had passed). */
async function holdTimePassed(userId: string): Promise<void> {
  await t.services.pool.query(
    "UPDATE user_profiles SET security_hold_until = now() - interval '1 minute' WHERE id = $1",
    [userId],
  );
}

const NEW_PASSWORD = 'Brand-New-Pass-7';

/** A customer who reset the password with the phrase (burning it: product.md S10), signed in again. */
async function afterPhraseReset() {
  const user = await verifiedCustomer(t);
  const reset = await call(t, {
    method: 'POST',
    url: '/api/auth/reset-password',
    body: { recoveryPhrase: user.seedPhrase, newPassword: NEW_PASSWORD },
  });
  expect(reset.statusCode).toBe(200);
  const verified = await call(t, {
    method: 'POST',
    url: '/api/2fa/verify',
    cookie: sessionCookie(await signIn(t, user.email, NEW_PASSWORD)),
    body: { code: codeFor(user, 1) },
  });
  expect(verified.statusCode).toBe(200);
  return { ...user, password: NEW_PASSWORD, cookie: sessionCookie(verified) };
}

/** After the reset, the replacement phrase made behind the password: what the confirm step is for. */
async function withReplacementPhrase() {
  const user = await afterPhraseReset();
  expect((await unlock(user.cookie, NEW_PASSWORD)).statusCode).toBe(200);
  const made = await generate(user.cookie);
  expect(made.json()).toMatchObject({ created: true, confirmedAt: null });
  const phrase: string = made.json().phrase;
  expect(phrase).not.toBe(user.seedPhrase);
  return { ...user, phrase };
}

/** The same twelve words with one swapped for another word of the list. */
function oneWordWrong(phrase: string, at = 4): string {
  const words = phrase.split(' ');
  words[at] = words[at] === 'abandon' ? 'ability' : 'abandon';
  return words.join(' ');
}

describe('viewing the recovery phrase (product.md S1, S3)', () => {
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

  it("counts the first phrase, made at sign-up's 2FA setup, as confirmed: sign-up asks no more", async () => {
    await unlock(user.cookie, user.password);
    const { confirmedAt } = (await readPhrase(user.cookie)).json();
    expect(confirmedAt).toEqual(expect.any(String));
    expect(await securityEventsOf(user.userId)).toContain('phrase-created');
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

describe('confirming a new phrase after the old one was burnt (product.md S10)', () => {
  it('stores the replacement unconfirmed, and typing it back confirms it and lets an expired hold end', async () => {
    const user = await withReplacementPhrase();
    expect(await confirmedAtOf(user.userId)).toBeNull();
    expect((await readPhrase(user.cookie)).json()).toMatchObject({
      phrase: user.phrase,
      confirmedAt: null,
    });
    await holdTimePassed(user.userId);
    expect(await holdOf(user.cookie)).toMatchObject({ onHold: true, needsNewPhrase: true });

    // Typed as a person types: capitals and extra spaces do not matter, the words do.
    const res = await confirm(
      user.cookie,
      `  ${user.phrase.toUpperCase().replaceAll(' ', '   ')} `,
    );
    expect(res.statusCode).toBe(200);
    const at = await confirmedAtOf(user.userId);
    expect(at).not.toBeNull();
    expect(res.json()).toEqual({ confirmedAt: at?.toISOString() });
    expect(await holdOf(user.cookie)).toMatchObject({ onHold: false, needsNewPhrase: false });
    expect((await readPhrase(user.cookie)).json().confirmedAt).toBe(at?.toISOString());
    expect(await securityEventsOf(user.userId)).toEqual(
      expect.arrayContaining(['phrase-created', 'phrase-confirmed']),
    );

    // Confirming again is harmless: the first time stays and nothing is logged twice.
    const again = await withoutChange(t, () => confirm(user.cookie, user.phrase));
    expect(again.json()).toEqual({ confirmedAt: at?.toISOString() });
    expect(
      (await securityEventsOf(user.userId)).filter((k) => k === 'phrase-confirmed'),
    ).toHaveLength(1);
  });

  it('keeps the hold on with an unconfirmed phrase even after security_hold_hours', async () => {
    const user = await withReplacementPhrase();
    await holdTimePassed(user.userId);
    expect(await holdOf(user.cookie)).toMatchObject({ onHold: true, needsNewPhrase: true });
    // A hold-gated change is still refused, and says what is missing.
    const refused = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/2fa/disable',
        cookie: user.cookie,
        body: { code: codeFor(user, 2) },
      }),
    );
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).error).toBe('SECURITY_HOLD');
    expect(errorOf(refused).message).toContain('confirm it');
  });

  it('refuses wrong words with a clear message, and changes nothing', async () => {
    const user = await withReplacementPhrase();
    await holdTimePassed(user.userId);
    for (const wrong of [oneWordWrong(user.phrase), user.seedPhrase ?? '']) {
      const res = await withoutChange(t, () => confirm(user.cookie, wrong));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'INVALID_RECOVERY_PHRASE',
        message:
          'Those words do not match your recovery phrase. Check each word and its order against what you wrote down, then try again.',
      });
    }
    // The right words in the wrong order are wrong words.
    const words = user.phrase.split(' ');
    const swapped = [words[1], words[0], ...words.slice(2)].join(' ');
    expect((await withoutChange(t, () => confirm(user.cookie, swapped))).statusCode).toBe(400);
    // Eleven words is not a phrase at all.
    const short = await withoutChange(t, () => confirm(user.cookie, words.slice(1).join(' ')));
    expect(short.statusCode).toBe(400);
    expect(errorOf(short).message).toContain('exactly 12 words');
    expect(await confirmedAtOf(user.userId)).toBeNull();
    expect(await holdOf(user.cookie)).toMatchObject({ onHold: true });
    expect(await securityEventsOf(user.userId)).not.toContain('phrase-confirmed');
  });

  it('counts every answer before checking it: parallel wrong ones beyond the limit get 429', async () => {
    const user = await withReplacementPhrase();
    const wrong = oneWordWrong(user.phrase, 7);
    const results = await withoutChange(t, () =>
      Promise.all(Array.from({ length: 9 }, () => confirm(user.cookie, wrong))),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    // The account's limit on phrase checks is five per fifteen minutes.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429]);
    const limited = results.find((r) => r.statusCode === 429);
    expect(limited?.json()).toMatchObject({ error: 'RATE_LIMITED' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right words wait now: the limit is not an oracle that lets the answer through.
    const right = await withoutChange(t, () => confirm(user.cookie, user.phrase));
    expect(right.statusCode).toBe(429);
    expect(await confirmedAtOf(user.userId)).toBeNull();
  });

  it('answers a customer with no phrase to confirm with a 409', async () => {
    // The used phrase is burnt and no new one is made yet.
    const user = await afterPhraseReset();
    const res = await withoutChange(t, () => confirm(user.cookie, user.seedPhrase ?? ''));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe('You have no recovery phrase yet. Create one first.');
  });

  it('needs a signed-in customer', async () => {
    const res = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/recovery-phrase/confirm', body: { phrase: 'a b c' } }),
    );
    expect(res.statusCode).toBe(401);
  });
});

describe('the words typed to confirm', () => {
  it('are never written to the log, right or wrong', async () => {
    const user = await withReplacementPhrase();
    const wrong = oneWordWrong(user.phrase, 2);
    expect((await confirm(user.cookie, wrong)).statusCode).toBe(400);
    expect((await confirm(user.cookie, user.phrase)).statusCode).toBe(200);
    expect(logLines.some((l) => l.includes('/api/recovery-phrase/confirm'))).toBe(true);
    for (const phrase of [user.phrase, wrong]) {
      const words = phrase.split(' ');
      // No two of its words side by side anywhere: not the phrase, not a piece of it.
      for (let i = 1; i < words.length; i++) {
        const pair = `${words[i - 1]} ${words[i]}`;
        expect(logLines.filter((l) => l.includes(pair))).toEqual([]);
      }
    }
  });
});

describe('staff and the recovery phrase (decision 0027)', () => {
  it('refuses every phrase route to a staff session with 403, making, reading and changing nothing', async () => {
    // An admin made by the CLI has none; one promoted from a customer kept theirs, and
    // neither may make, unlock, read or confirm one while staff.
    const fresh = await verifiedAdmin(t);
    const promoted = await promotedCustomer(t);
    const somePhrase = promoted.seedPhrase ?? '';
    expect(somePhrase.split(' ')).toHaveLength(12);
    for (const admin of [fresh, promoted]) {
      for (const attempt of [
        () => unlock(admin.cookie, admin.password),
        () => readPhrase(admin.cookie),
        () => generate(admin.cookie),
        () => confirm(admin.cookie, somePhrase),
      ]) {
        const res = await withoutChange(t, attempt);
        expect([res.statusCode, errorOf(res)]).toEqual([
          403,
          { error: 'FORBIDDEN', message: RECOVERY_PHRASE_MSG.staff },
        ]);
        expect(res.body).not.toContain(somePhrase);
      }
    }
    const { rows } = await t.services.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM user_seed_phrases WHERE user_id = $1',
      [fresh.userId],
    );
    expect(rows[0]?.n).toBe(0);
    // The promoted admin's phrase was never in the log either.
    expect(logLines.join('\n')).not.toContain(somePhrase);
  });
});
