import { createTestApp, type TestApp } from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_CHANNEL } from './settings.repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.services.listener.start();
});
afterAll(async () => {
  await t.services.listener.stop();
  await t.close();
});

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met within 2 s');
}

describe('settings cache', () => {
  it('serves from memory until a change is announced, then reads the new value at once', async () => {
    expect((await t.services.settings.all()).get('withdrawals_enabled')).toBe('true');
    // A change without an announcement is not seen: the cache is really used.
    await t.services.pool.query(
      "UPDATE app_settings SET setting_value = 'false' WHERE setting_key = 'withdrawals_enabled'",
    );
    expect((await t.services.settings.all()).get('withdrawals_enabled')).toBe('true');
    // The announcement, as every settings write sends it, reaches this instance.
    await t.services.pool.query('SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, '']);
    await until(
      async () => (await t.services.settings.all()).get('withdrawals_enabled') === 'false',
    );
  });

  it('caches nothing while not listening', async () => {
    await t.services.listener.stop();
    await t.services.pool.query(
      "UPDATE app_settings SET setting_value = 'true' WHERE setting_key = 'deposits_enabled'",
    );
    expect((await t.services.settings.all()).get('deposits_enabled')).toBe('true');
    await t.services.pool.query(
      "UPDATE app_settings SET setting_value = 'false' WHERE setting_key = 'deposits_enabled'",
    );
    expect((await t.services.settings.all()).get('deposits_enabled')).toBe('false');
  });
});
