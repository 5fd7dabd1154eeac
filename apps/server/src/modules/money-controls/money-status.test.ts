import {
  call,
  createTestApp,
  type TestApp,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { fund, requestWithdrawal } from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// GET /api/money/status tells the web app the server's BTC_NETWORK, so the withdrawal and
// admin address forms check a Bitcoin address as the server will. The network is set once
// per process at start (as the server does), so each app here is built and used in turn.

const REGTEST_ADDRESS = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
const MAINNET_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('on an app with BTC_NETWORK=regtest', () => {
  let t: TestApp;
  beforeAll(async () => {
    // BTC_NETWORK alone: no node is needed for the address checks to follow it.
    t = await createTestApp({ BTC_NETWORK: 'regtest' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers bitcoinNetwork regtest, and the server refuses a mainnet address as the form will', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const res = await call(t, { url: '/api/money/status', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().bitcoinNetwork).toBe('regtest');

    const refused = await withoutChange(t, () =>
      requestWithdrawal(t, user, {
        assetId: 'BTC',
        amount: '0.001',
        address: MAINNET_ADDRESS,
      }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'This is not a Bitcoin regtest address. This service runs on Bitcoin regtest.',
    );
  });
});

describe('on an app without BTC_NETWORK', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers bitcoinNetwork mainnet, and the server refuses a regtest address', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const res = await call(t, { url: '/api/money/status', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().bitcoinNetwork).toBe('mainnet');

    const refused = await withoutChange(t, () =>
      requestWithdrawal(t, user, {
        assetId: 'BTC',
        amount: '0.001',
        address: REGTEST_ADDRESS,
      }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'This is a Bitcoin test network address. Enter a Bitcoin mainnet address instead.',
    );
  });
});
