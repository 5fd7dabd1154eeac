import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { COMMANDS } from '@server/cli-commands';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { setSetting } from '@server-test/money-helpers';
import { testWatcher } from '@server-test/test-watcher';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TChainsResponse } from './chains.routes';
import { createFakeChain, type FakeChain } from './fake-chain';

const root = HDKey.fromMasterSeed(
  mnemonicToSeedSync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  ),
);
const ETH_XPUB = root.derive("m/44'/60'/0'").publicExtendedKey;
const TRON_XPUB = root.derive("m/44'/195'/0'").publicExtendedKey;

// Everything secret the operator put into the configuration: none of it may reach staff.
const SECRETS = [
  'n0de-pa55word',
  'rpc-user',
  'infura0123456789abcdef',
  'QUERY-KEY-42',
  'TRONQUERYKEY',
  'tron-pro-key-SECRET',
  ETH_XPUB,
  TRON_XPUB,
];

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let admin: SignedInUser;
let alice: SignedInUser;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  // Ethereum and TRON configured (their nodes are never asked here: no job runs in a test
  // app), Bitcoin not.
  t = await createTestApp({
    PRICE_FEED_URL: feeds.priceFeedUrl,
    FX_FEED_URL: feeds.fxFeedUrl,
    ETH_RPC_URL:
      'http://rpc-user:n0de-pa55word@127.0.0.1:9/v3/infura0123456789abcdef?k=QUERY-KEY-42',
    ETH_XPUB,
    TRON_API_URL: 'https://tron.example.test/?apikey=TRONQUERYKEY',
    TRON_XPUB,
    TRON_API_KEY: 'tron-pro-key-SECRET',
  });
  admin = await verifiedAdmin(t);
  alice = await verifiedCustomer(t);
  await t.services.prices.refresh();
  await t.services.ledgerCheck.run();
});

afterAll(async () => {
  await t.close();
  await feeds.close();
});

beforeEach(async () => {
  // Each test starts from watchers that never ran.
  for (const table of ['chain_deposits', 'chain_cursors', 'chain_watch_errors', 'chain_blocks']) {
    await t.services.pool.query(`DELETE FROM ${table}`);
  }
  await setSetting(t, 'confirmations_eth', '3');
});

async function chains(): Promise<TChainsResponse> {
  const res = await call(t, { url: '/api/admin/chains', cookie: admin.cookie });
  expect(res.statusCode).toBe(200);
  for (const secret of SECRETS) expect(res.body).not.toContain(secret);
  return res.json();
}

async function chainOf(name: 'bitcoin' | 'ethereum' | 'tron') {
  const found = (await chains()).chains.find((c) => c.chain === name);
  if (!found) throw new Error(`${name} is not listed`);
  return found;
}

/** The dashboard's health lines about the chains. */
async function chainHealth() {
  const res = await call(t, { url: '/api/admin/overview', cookie: admin.cookie });
  expect(res.statusCode).toBe(200);
  const health = res.json().health as { status: string; problems: string[] };
  return { status: health.status, problems: health.problems.filter((p) => p.startsWith('Chain')) };
}

/** A watcher of the configured ethereum chain, following a scripted node. */
function watcherOn(chain: FakeChain) {
  return testWatcher(t, chain.adapter);
}

async function cursorAt(chain: string, height: number, tip: number, polledAgo = '0 seconds') {
  await t.services.pool.query(
    `INSERT INTO chain_cursors (chain, height, block_hash, node_tip, last_block_at, updated_at)
     VALUES ($1, $2, 'h', $3, now() - interval '1 minute', now() - $4::interval)`,
    [chain, height, tip, polledAgo],
  );
}

describe('GET /api/admin/chains', () => {
  it('is for admins only: 401 without a session, 403 to a customer', async () => {
    await withoutChange(t, async () => {
      const anon = await call(t, { url: '/api/admin/chains' });
      expect(anon.statusCode).toBe(401);
      const customer = await call(t, { url: '/api/admin/chains', cookie: alice.cookie });
      expect(customer.statusCode).toBe(403);
      expect(customer.body).not.toContain('ethereum');
    });
  });

  it('lists every chain: configured ones not started yet, the others as credited by staff, and the configuration without secrets', async () => {
    const body = await chains();
    expect(body.chains.map((c) => [c.chain, c.state])).toEqual([
      ['bitcoin', 'not-configured'],
      ['ethereum', 'not-started'],
      ['tron', 'not-started'],
    ]);
    const [bitcoin, ethereum, tron] = body.chains;
    expect(bitcoin).toEqual({
      chain: 'bitcoin',
      configured: false,
      state: 'not-configured',
      reason: 'Not configured: deposits are credited by staff.',
      configuration: [
        { name: 'BTC_RPC_URL', value: null },
        { name: 'BTC_XPUB', value: null },
        { name: 'BTC_NETWORK', value: 'mainnet' },
      ],
    });
    expect(ethereum).toMatchObject({
      configured: true,
      reason: "The watcher has not run yet: it starts with the server's background jobs.",
      height: null,
      nodeTip: null,
      requiredConfirmations: 3,
      configuration: [
        {
          name: 'ETH_RPC_URL',
          value: 'http://127.0.0.1:9 (credentials, path, query hidden)',
        },
        { name: 'ETH_XPUB', value: `${ETH_XPUB.slice(0, 8)}…${ETH_XPUB.slice(-6)}` },
        { name: 'USDT_ERC20_CONTRACT', value: '0xdac17f958d2ee523a2206206994597c13d831ec7' },
      ],
    });
    expect(tron?.configuration).toEqual([
      { name: 'TRON_API_URL', value: 'https://tron.example.test (query hidden)' },
      { name: 'TRON_XPUB', value: `${TRON_XPUB.slice(0, 8)}…${TRON_XPUB.slice(-6)}` },
      { name: 'USDT_TRC20_CONTRACT', value: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      { name: 'TRON_API_KEY', value: 'set' },
    ]);
    expect(body.alerts).toEqual([]);
    expect(await chainHealth()).toEqual({ status: 'optimal', problems: [] });
  });

  it('follows a watcher: ok while it polls, failing when its node does not answer, ok again after', async () => {
    const address = `0x${randomBytes(20).toString('hex')}`;
    // One address for both Ethereum assets counts once; an inactive one and a Bitcoin one not.
    await t.services.pool.query(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, is_active) VALUES
         ($1, 'ETH', 'ethereum', $2, true), ($1, 'USDT', 'erc20', upper($2), true),
         ($1, 'ETH', 'ethereum', $3, false), ($1, 'BTC', 'bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', true)`,
      [alice.userId, address, `0x${randomBytes(20).toString('hex')}`],
    );
    const chain = createFakeChain('ethereum');
    chain.mine([], 5);
    const watcher = watcherOn(chain);
    expect(await watcher.tick()).toMatchObject({ state: 'ok', height: 5 });

    const ok = await chainOf('ethereum');
    expect(ok).toMatchObject({
      state: 'ok',
      reason: 'Following the node: up to date.',
      nodeTip: 5,
      height: 5,
      lag: 0,
      errorsLastHour: 0,
      lastError: null,
      watchedAddresses: 1,
      confirming: 0,
      reversedOnChain: 0,
    });
    expect(ok.configured && ok.lastBlockAt).toBe(
      new Date(Date.UTC(2026, 0, 1) + 5 * 12_000).toISOString(),
    );

    chain.mine([], 2);
    chain.fail('connect ECONNREFUSED 127.0.0.1:8545');
    watcher.retryNow();
    expect(await watcher.tick()).toMatchObject({ state: 'failed' });
    expect(await chainOf('ethereum')).toMatchObject({
      state: 'failing',
      reason: 'The last poll failed 1 minute ago: connect ECONNREFUSED 127.0.0.1:8545',
      height: 5,
      errorsLastHour: 1,
      lastError: 'connect ECONNREFUSED 127.0.0.1:8545',
    });
    expect(await chainHealth()).toEqual({
      status: 'degraded',
      problems: [
        'Chain Ethereum failing: The last poll failed 1 minute ago: connect ECONNREFUSED 127.0.0.1:8545',
      ],
    });
    const printed = await COMMANDS['chain-status']?.run(t.services, []);
    expect(printed).toContain(
      'ethereum: FAILING: The last poll failed 1 minute ago: connect ECONNREFUSED 127.0.0.1:8545',
    );

    // The node answers again: the watcher catches up, the error stays counted for the hour.
    chain.fail(null);
    watcher.retryNow();
    expect(await watcher.tick()).toMatchObject({ state: 'ok', height: 7 });
    expect(await chainOf('ethereum')).toMatchObject({
      state: 'ok',
      height: 7,
      errorsLastHour: 1,
      lastError: 'connect ECONNREFUSED 127.0.0.1:8545',
    });
    expect(await chainHealth()).toEqual({ status: 'optimal', problems: [] });
  });

  it('is lagging when further behind than a deposit needs, or when nobody polled for minutes', async () => {
    await cursorAt('ethereum', 100, 103);
    expect(await chainOf('ethereum')).toMatchObject({ state: 'ok', lag: 3 });

    await t.services.pool.query(`UPDATE chain_cursors SET node_tip = 120 WHERE chain = 'ethereum'`);
    const behind = await chainOf('ethereum');
    expect(behind).toMatchObject({
      state: 'lagging',
      lag: 20,
      reason:
        '20 blocks behind the node, more than the 3 blocks a deposit needs: deposits are credited late.',
    });
    expect((await chainHealth()).problems).toEqual([
      'Chain Ethereum lagging: 20 blocks behind the node, more than the 3 blocks a deposit needs: deposits are credited late.',
    ]);

    await cursorAt('tron', 50, 50, '6 minutes');
    expect(await chainOf('tron')).toMatchObject({
      state: 'lagging',
      lag: 0,
      reason: 'No poll for 6 minutes: is the server running its background jobs?',
    });
    expect((await chainHealth()).problems).toHaveLength(2);
  });

  it('is failing when the node never answered, or fails often even between good polls', async () => {
    // TRON's watcher never reached its node: no cursor, only the failures.
    await t.services.pool.query(
      `INSERT INTO chain_watch_errors (chain, message, at) VALUES ('tron', 'HTTP 401 from the API', now())`,
    );
    expect(await chainOf('tron')).toMatchObject({
      state: 'failing',
      reason: 'The watcher cannot start: HTTP 401 from the API',
      errorsLastHour: 1,
      lastError: 'HTTP 401 from the API',
    });

    // Ethereum polls fine now, but failed 30 times in the hour, the last a minute before.
    await cursorAt('ethereum', 10, 10);
    await t.services.pool.query(
      `UPDATE chain_cursors SET last_error = 'timeout', last_error_at = now() - interval '1 minute'
        WHERE chain = 'ethereum'`,
    );
    await t.services.pool.query(
      `INSERT INTO chain_watch_errors (chain, message, at)
       SELECT 'ethereum', 'timeout', now() - i * interval '1 minute' FROM generate_series(1, 29) i`,
    );
    expect(await chainOf('ethereum')).toMatchObject({ state: 'ok', errorsLastHour: 29 });
    await t.services.pool.query(
      `INSERT INTO chain_watch_errors (chain, message, at) VALUES ('ethereum', 'timeout', now() - interval '30 minutes')`,
    );
    expect(await chainOf('ethereum')).toMatchObject({
      state: 'failing',
      reason: '30 failed polls in the last hour: the node answers only some of the time.',
    });
    expect((await chainHealth()).problems).toEqual([
      'Chain Ethereum failing: 30 failed polls in the last hour: the node answers only some of the time.',
      'Chain TRON failing: The watcher cannot start: HTTP 401 from the API',
    ]);
    // An old failure the watcher has polled past is no problem.
    await t.services.pool.query(`DELETE FROM chain_watch_errors`);
    await t.services.pool.query(
      `UPDATE chain_cursors SET last_error_at = now() - interval '2 hours' WHERE chain = 'ethereum'`,
    );
    expect(await chainOf('ethereum')).toMatchObject({ state: 'ok', errorsLastHour: 0 });
    expect(await chainOf('tron')).toMatchObject({ state: 'not-started' });
  });

  it('lists a credited deposit that left the chain as an alert, and the dashboard says so', async () => {
    await cursorAt('ethereum', 10, 10);
    const hash = `0x${randomBytes(32).toString('hex')}`;
    await t.services.pool.query(
      `INSERT INTO chain_deposits (chain, tx_hash, output_index, address, user_id, asset_id,
         amount_minor, block_height, block_hash, confirmations, status)
       VALUES ('ethereum', $1, 0, '0x52908400098527886e0f7030069857d2e4169ee7', $2, 'USDT-ERC20',
         '1250000', 9, '0xabc', 3, 'reversed-on-chain')`,
      [hash, alice.userId],
    );
    const body = await chains();
    expect(body.alerts).toEqual([
      expect.objectContaining({
        chain: 'ethereum',
        txHash: hash,
        email: alice.email,
        assetId: 'USDT-ERC20',
        amountMinor: '1250000',
      }),
    ]);
    expect(body.chains.find((c) => c.chain === 'ethereum')).toMatchObject({
      state: 'ok',
      reversedOnChain: 1,
    });
    expect(await chainHealth()).toEqual({
      status: 'degraded',
      problems: [
        'Chain deposits: 1 credited deposit left the blockchain; not debited, staff must resolve it',
      ],
    });
    expect(await COMMANDS['chain-status']?.run(t.services, [])).toContain(
      'ALERT: 1 credited deposit(s) left the chain',
    );
  });

  it('prints the same through the CLI, without a secret', async () => {
    await cursorAt('ethereum', 100, 100);
    const printed = (await COMMANDS['chain-status']?.run(t.services, [])) ?? '';
    for (const secret of SECRETS) expect(printed).not.toContain(secret);
    expect(printed).toContain('bitcoin: Not configured: deposits are credited by staff.');
    expect(printed).toContain('ethereum: OK: Following the node: up to date.');
    expect(printed).toContain(
      'ETH_RPC_URL:        http://127.0.0.1:9 (credentials, path, query hidden)',
    );
    expect(printed).toContain('tron: NOT-STARTED:');
    expect(printed).toContain('TRON_API_KEY:       set');
    expect(printed).not.toContain('No chain is watched');
  });
});
