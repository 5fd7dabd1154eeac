import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { bech32 } from '@scure/base';
import pg from 'pg';
import { DATA_DIR } from './app';
import { E2E_PG_PORT } from './ports';

/**
 * Straight to the test server's database, for what staff do on screens that do not exist
 * yet (app settings, deposit addresses) and for moving time back (idle sessions). Each
 * call opens and closes its own connection.
 */
export async function query<R extends pg.QueryResultRow>(
  text: string,
  params: unknown[],
): Promise<R[]> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: E2E_PG_PORT,
    user: 'coffer',
    database: 'coffer',
    password: fs.readFileSync(path.join(DATA_DIR, 'pg.password'), 'utf8').trim(),
  });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

export type TMoneySetting =
  | 'withdrawals_enabled'
  | 'deposits_enabled'
  | 'maintenance_mode'
  | 'max_daily_withdrawal';

async function readSetting(key: TMoneySetting): Promise<string> {
  const rows = await query<{ v: string }>(
    'SELECT setting_value AS v FROM app_settings WHERE setting_key = $1',
    [key],
  );
  const value = rows[0]?.v;
  if (value === undefined) throw new Error(`no app setting ${key}`);
  return value;
}

/**
 * Changes a setting and, in the same statement (so the same transaction), announces the
 * change on the channel every server instance listens to before trusting its cached
 * settings: the way any writer of app_settings must.
 */
async function writeSetting(key: TMoneySetting, value: string): Promise<void> {
  const rows = await query(
    `WITH changed AS (
       UPDATE app_settings SET setting_value = $2, updated_at = now()
        WHERE setting_key = $1 RETURNING setting_key
     )
     SELECT pg_notify('coffer_settings', '') FROM changed`,
    [key, value],
  );
  if (rows.length !== 1) throw new Error(`no app setting ${key}`);
}

const STATUS_FIELD = {
  withdrawals_enabled: 'withdrawalsEnabled',
  deposits_enabled: 'depositsEnabled',
  maintenance_mode: 'maintenanceMode',
  max_daily_withdrawal: 'maxDailyWithdrawalUsd',
} as const;

/**
 * Waits until the server answers with the setting's new value: it drops its cached
 * settings when the change is announced, which takes a moment after the commit.
 */
async function expectServerSees(page: Page, key: TMoneySetting, value: string): Promise<void> {
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/money/status');
      if (!res.ok()) throw new Error(`GET /api/money/status: ${res.status()}`);
      const shown: unknown = (await res.json())[STATUS_FIELD[key]];
      return key === 'max_daily_withdrawal' ? Number(shown) : String(shown);
    }, `the server's ${key}`)
    .toBe(key === 'max_daily_withdrawal' ? Number(value) : value);
}

/**
 * Runs `body` with an operator setting changed, as the admin settings screen will, and puts
 * the earlier value back afterwards whatever happens: other tests see the defaults. `page`
 * is a signed-in customer's, to see when the server has taken each change.
 */
export async function withSetting<T>(
  page: Page,
  key: TMoneySetting,
  value: string,
  body: () => Promise<T>,
): Promise<T> {
  const before = await readSetting(key);
  await writeSetting(key, value);
  try {
    await expectServerSees(page, key, value);
    return await body();
  } finally {
    await writeSetting(key, before);
    await expectServerSees(page, key, before);
  }
}

/** A Bitcoin mainnet address (P2WPKH, bc1q...) that nobody has been given yet. */
export function newBitcoinAddress(): string {
  return bech32.encode('bc', [0, ...bech32.toWords(randomBytes(20))]);
}

/** Gives the customer an active deposit address, as staff do in the admin back office. */
export async function addDepositAddress(
  email: string,
  address: { symbol: string; network: string; address: string },
): Promise<void> {
  const rows = await query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, is_active)
     SELECT id, $2, $3, $4, true FROM users WHERE email = lower($1)
     RETURNING id`,
    [email, address.symbol, address.network, address.address],
  );
  if (rows.length !== 1) throw new Error(`no account with the e-mail ${email}`);
}
