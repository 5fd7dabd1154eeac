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

/** Credits a completed deposit through the ledger, as the chain watcher (or the CLI) would. */
export async function fund(t: TestApp, userId: string, assetId: TAssetId, amount: string) {
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

/** A money-moving POST as the customer's browser sends it, with its Idempotency-Key if any. */
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
    body,
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
