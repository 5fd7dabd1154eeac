import { randomBytes } from 'node:crypto';
import { ASSETS, fromMinor, parseAmount, type TAssetId, toMinor } from '@coffer/shared';
import { expect } from 'vitest';
import { withTransaction } from '../src/db/tx';
import { call, type SignedInUser, type TestApp } from './helpers';

/** Addresses that pass every check (BIP-173, EIP-55 and Tron examples). */
export const GOOD_ADDRESS: Record<TAssetId, string> = {
  BTC: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  ETH: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  'USDT-ERC20': '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  'USDT-TRC20': 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
};

/** Unused backup codes these tests gave each customer, by user id. */
const spareCodes = new Map<string, string[]>();

/**
 * Gives the account unused backup codes, as the 2FA setup stores them: every money request
 * here carries a fresh second factor (step-up), and one customer may send dozens, in
 * parallel too, while an authenticator gives one new code per 30 seconds. Seeded with the
 * money (see `fund`), so never inside a `withoutChange`. The step-up tests use real
 * authenticator codes and passkeys.
 */
export async function seedBackupCodes(t: TestApp, userId: string, count = 40): Promise<void> {
  const codes = Array.from({ length: count }, () =>
    randomBytes(8)
      .toString('base64')
      .replace(/[^A-Z2-9]/gi, '')
      .toUpperCase()
      .padEnd(8, 'X')
      .slice(0, 8),
  );
  await t.services.pool.query(
    'INSERT INTO backup_codes (user_id, code_hash) SELECT $1, unnest($2::text[])',
    [userId, codes.map((c) => t.services.secrets.keyedHash('backup-code', `${userId}:${c}`))],
  );
  spareCodes.set(userId, [...(spareCodes.get(userId) ?? []), ...codes]);
}

/**
/**
 * Tops up the account's unused backup codes for step-ups: staff confirm money, factor and
 * settings changes with a fresh second factor too, and have no money to `fund`. Seeds
 * `count` more when fewer than 20 are left; never inside a `withoutChange`. Returns the
 * account.
 */
export async function spareStepUps<U extends SignedInUser>(
  t: TestApp,
  user: U,
  count = 200,
): Promise<U> {
  if ((spareCodes.get(user.userId)?.length ?? 0) < 20) await seedBackupCodes(t, user.userId, count);
  return user;
}

/** A fresh second factor for one request of this user (an unused backup code). */
export function stepUpFor(user: SignedInUser): { code: string } {
  const code = spareCodes.get(user.userId)?.shift() ?? user.backupCodes.shift();
  if (!code) throw new Error(`no unused backup code left for ${user.email}: fund() seeds them`);
  return { code };
}

/** Credits a completed deposit through the ledger, as the chain watcher (or the CLI) would. */
export async function fund(t: TestApp, userId: string, assetId: TAssetId, amount: string) {
  if ((spareCodes.get(userId)?.length ?? 0) < 20) await seedBackupCodes(t, userId);
  return withTransaction(t.services.pool, (client) =>
    t.services.ledger.post(client, {
      userId,
      assetId,
      type: 'deposit',
      direction: 'credit',
      amount: toMinor(assetId, amount),
      status: 'completed',
      transactionHash: randomBytes(32).toString('hex'),
      createdBy: null,
    }),
  );
}

export async function setSetting(t: TestApp, key: string, value: string): Promise<void> {
  await t.services.pool.query('UPDATE app_settings SET setting_value = $2 WHERE setting_key = $1', [
    key,
    value,
  ]);
}

/**
 * A money-moving POST as the customer's browser sends it: with its Idempotency-Key if any,
 * and a fresh second factor unless the body brings its own `stepUp` (or says `stepUp:
 * undefined` to send none).
 */
function postMoney(
  t: TestApp,
  url: string,
  user: SignedInUser,
  body: Record<string, unknown>,
  idempotencyKey?: string,
) {
  return call(t, {
    method: 'POST',
    url,
    cookie: user.cookie,
    body: 'stepUp' in body ? body : { ...body, stepUp: stepUpFor(user) },
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  });
}

/** POST /api/withdrawals as the customer's browser sends it. */
export const requestWithdrawal = (
  t: TestApp,
  user: SignedInUser,
  body: Record<string, unknown>,
  idempotencyKey?: string,
) => postMoney(t, '/api/withdrawals', user, body, idempotencyKey);

/** POST /api/bank-transfers (a bank payout) as the customer's browser sends it. */
export const requestBankTransfer = (
  t: TestApp,
  user: SignedInUser,
  body: Record<string, unknown>,
  idempotencyKey?: string,
) => postMoney(t, '/api/bank-transfers', user, body, idempotencyKey);

/** PUT /api/bank-details as the Settings form sends it, with a fresh second factor. */
export const saveBankDetails = (t: TestApp, user: SignedInUser, body: Record<string, unknown>) =>
  call(t, {
    method: 'PUT',
    url: '/api/bank-details',
    cookie: user.cookie,
    body: 'stepUp' in body ? body : { ...body, stepUp: stepUpFor(user) },
  });

/** A wallet's stored balance and hold, normalized ('1.5', not '1.500000000000000000'). */
export async function walletOf(t: TestApp, userId: string, assetId: TAssetId) {
  const { rows } = await t.services.pool.query<{ balance: string; held: string }>(
    'SELECT balance_crypto::text AS balance, held::text AS held FROM user_wallets WHERE user_id = $1 AND asset_id = $2',
    [userId, assetId],
  );
  const row = rows[0];
  if (!row) return null;
  const { decimals } = ASSETS[assetId];
  const trim = (v: string) => fromMinor(assetId, parseAmount(v, decimals));
  return { balance: trim(row.balance), held: trim(row.held) };
}

/** Every wallet's balance and hold are the sum of its ledger rows. */
export async function expectReconciled(t: TestApp): Promise<void> {
  expect(await t.services.ledger.reconcile(t.services.pool)).toEqual([]);
}

export async function transactionCount(t: TestApp, userId: string): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM transactions WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.n ?? 0;
}
