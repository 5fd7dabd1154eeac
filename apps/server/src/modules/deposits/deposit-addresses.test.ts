import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { setSetting, spareStepUps, stepUpFor } from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainConfigs, derive, loadChainConfig } from '../chains';

// The operator's account public keys, as they would put them in the environment. The
// mnemonic (and so any private key) exists only in this test.
const operator = HDKey.fromMasterSeed(
  mnemonicToSeedSync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  ),
);
const CHAIN_ENV = {
  BTC_RPC_URL: 'http://user:pass@127.0.0.1:1',
  BTC_XPUB: operator.derive("m/84'/1'/0'").publicExtendedKey,
  BTC_NETWORK: 'regtest',
  ETH_RPC_URL: 'http://127.0.0.1:1',
  ETH_XPUB: operator.derive("m/44'/60'/0'").publicExtendedKey,
  TRON_API_URL: 'http://127.0.0.1:1',
  TRON_XPUB: operator.derive("m/44'/195'/0'").publicExtendedKey,
};

let t: TestApp;
let chains: ChainConfigs;
beforeAll(async () => {
  chains = loadChainConfig(CHAIN_ENV);
  t = await createTestApp(CHAIN_ENV);
});
afterAll(async () => {
  await t?.close();
});

type Listed = {
  id: string;
  assetSymbol: string;
  network: string;
  address: string;
  assetId: string | null;
};

async function addresses(user: SignedInUser): Promise<Listed[]> {
  const res = await call(t, { url: '/api/deposit-addresses', cookie: user.cookie });
  expect(res.statusCode).toBe(200);
  return res.json().addresses;
}

/** The address the customer is shown for an asset (one only, or the test fails). */
function shownFor(list: Listed[], assetId: string): string {
  const matches = list.filter((a) => a.assetId === assetId);
  expect(matches).toHaveLength(1);
  return matches[0]?.address ?? '';
}

type Stored = { user_id: string; chain: string; derivation_index: number; address: string };

async function derivedRows(): Promise<Stored[]> {
  const { rows } = await t.services.pool.query<Stored>(
    `SELECT user_id, chain, derivation_index, address FROM deposit_addresses
      WHERE derivation_index IS NOT NULL ORDER BY chain, derivation_index`,
  );
  return rows;
}

/** Bare customer rows (no password that works): enough for the service, quick to make. */
async function customerRows(n: number): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ id: string }>(
    `INSERT INTO users (email, password_hash)
     SELECT 'bare-' || gen_random_uuid() || '@example.com', 'not a hash' FROM generate_series(1, $1)
     RETURNING id`,
    [n],
  );
  return rows.map((r) => r.id);
}

function config(chain: 'bitcoin' | 'ethereum' | 'tron') {
  const c = chains[chain];
  if (!c) throw new Error(`${chain} not configured`);
  return c;
}

describe('deposit addresses derived from the operator’s public keys', () => {
  it('derives the customer’s addresses on their first request and shows the same ones after', async () => {
    const user = await verifiedCustomer(t);
    const first = await addresses(user);
    const btc = shownFor(first, 'BTC');
    const eth = shownFor(first, 'ETH');
    // A regtest node's format, valid as the address the key gives at the stored index.
    expect(btc).toMatch(/^bcrt1q[02-9ac-hj-np-z]{38}$/);
    expect(eth).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // USDT-ERC20 is paid to the customer's Ethereum address; USDT-TRC20 to their TRON one.
    expect(shownFor(first, 'USDT-ERC20')).toBe(eth);
    expect(shownFor(first, 'USDT-TRC20')).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);

    const stored = (await derivedRows()).filter((r) => r.user_id === user.userId);
    expect(stored.map((r) => r.chain)).toEqual(['bitcoin', 'ethereum', 'tron']);
    for (const row of stored) {
      const chain = row.chain as 'bitcoin' | 'ethereum' | 'tron';
      expect(derive(config(chain), row.derivation_index).address).toBe(row.address);
    }

    expect(await addresses(user)).toEqual(first);
    expect((await derivedRows()).filter((r) => r.user_id === user.userId)).toEqual(stored);
  });

  it('gives one customer’s 50 parallel first requests one address per chain', async () => {
    const user = await verifiedCustomer(t);
    const before = await derivedRows();
    const answers = await Promise.all(Array.from({ length: 50 }, () => addresses(user)));
    const shown = new Set(answers.map((list) => JSON.stringify(list)));
    expect(shown.size).toBe(1);
    const added = (await derivedRows()).filter((r) => !before.some((b) => b.address === r.address));
    expect(added.map((r) => [r.user_id, r.chain])).toEqual([
      [user.userId, 'bitcoin'],
      [user.userId, 'ethereum'],
      [user.userId, 'tron'],
    ]);
    // No index skipped either: the next ones after those already taken.
    for (const row of added) {
      const taken = before.filter((b) => b.chain === row.chain).length;
      expect(row.derivation_index).toBe(taken);
    }
  });

  it('gives 20 customers asking at once 20 different addresses per chain, no index twice', async () => {
    // Customers as rows (signing 20 up through the API takes most of a minute): the
    // service the route calls is asked directly, 40 calls in flight, two per customer.
    const ids = await customerRows(20);
    const before = await derivedRows();
    const lists = await Promise.all(
      ids.flatMap((id) => [t.services.deposits.addresses(id), t.services.deposits.addresses(id)]),
    );
    const rows = await derivedRows();
    for (const chain of ['bitcoin', 'ethereum', 'tron'] as const) {
      const onChain = rows.filter((r) => r.chain === chain);
      // Indexes 0…n-1, each once: none handed out twice, none skipped.
      expect(onChain.map((r) => r.derivation_index)).toEqual(onChain.map((_, i) => i));
      expect(new Set(onChain.map((r) => r.address)).size).toBe(onChain.length);
      expect(new Set(onChain.map((r) => r.user_id)).size).toBe(onChain.length);
      expect(onChain.length).toBe(before.filter((r) => r.chain === chain).length + 20);
    }
    ids.forEach((id, i) => {
      const mine = rows.filter((r) => r.user_id === id);
      expect(mine).toHaveLength(3);
      const [a, b] = [lists[2 * i]?.addresses ?? [], lists[2 * i + 1]?.addresses ?? []];
      expect(a).toEqual(b);
      expect(shownFor(a, 'BTC')).toBe(mine.find((r) => r.chain === 'bitcoin')?.address);
    });
  });

  it('keeps staff-entered addresses beside the derived ones', async () => {
    const user = await verifiedCustomer(t);
    await t.services.pool.query(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, created_at)
       VALUES ($1, 'BNB', 'bep20', '0xde709f2102306220921060314715629080e2fb77', now() - interval '1 day')`,
      [user.userId],
    );
    const list = await addresses(user);
    expect(list.map((a) => `${a.assetSymbol}/${a.network}`).sort()).toEqual([
      'BNB/bep20',
      'BTC/bitcoin',
      'ETH/ethereum',
      'USDT/erc20',
      'USDT/trc20',
    ]);
  });

  it('passes over an index whose address staff already entered for another customer', async () => {
    const rows = await derivedRows();
    const next = rows.filter((r) => r.chain === 'ethereum').length;
    const taken = derive(config('ethereum'), next).address;
    const [other] = await customerRows(1);
    await t.services.pool.query(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address)
       VALUES ($1, 'ETH', 'ethereum', $2)`,
      [other, taken],
    );
    const user = await verifiedCustomer(t);
    const eth = shownFor(await addresses(user), 'ETH');
    expect(eth).toBe(derive(config('ethereum'), next + 1).address);
    // The staff-entered address stays the other customer's.
    const { rows: owners } = await t.services.pool.query<{ user_id: string }>(
      'SELECT user_id FROM deposit_addresses WHERE address = $1',
      [taken],
    );
    expect(owners).toEqual([{ user_id: other }]);
  });

  it('derives nothing while deposits are paused', async () => {
    const user = await verifiedCustomer(t);
    await setSetting(t, 'deposits_enabled', 'false');
    try {
      const body = (await call(t, { url: '/api/deposit-addresses', cookie: user.cookie })).json();
      expect(body.addresses).toEqual([]);
      expect((await derivedRows()).some((r) => r.user_id === user.userId)).toBe(false);
    } finally {
      await setSetting(t, 'deposits_enabled', 'true');
    }
  });
});

describe('addresses checked by BTC_NETWORK (regtest here)', () => {
  it('lets staff enter a bcrt1 address and refuses a mainnet one, changing nothing', async () => {
    const admin = await spareStepUps(t, await verifiedAdmin(t));
    const approver = await spareStepUps(t, await verifiedAdmin(t));
    const [customer] = await customerRows(1);
    // Proposed by one admin, added when another approves it (two people).
    const add = (address: string) =>
      call(t, {
        method: 'POST',
        url: '/api/admin/deposit-addresses',
        cookie: admin.cookie,
        body: {
          userId: customer,
          assetSymbol: 'BTC',
          network: 'bitcoin',
          address,
          stepUp: stepUpFor(admin),
        },
      });
    const mainnet = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const refused = await withoutChange(t, () => add(mainnet));
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toContain(
      'This is not a Bitcoin regtest address. This service runs on Bitcoin regtest.',
    );

    // Index 9999's address: one no customer was given.
    const regtest = derive(config('bitcoin'), 9999).address;
    const proposed = await add(regtest);
    expect(proposed.statusCode, proposed.body).toBe(202);
    expect(proposed.json().pending.after).toMatchObject({ address: regtest, assetSymbol: 'BTC' });
    const approved = await call(t, {
      method: 'POST',
      url: `/api/admin/changes/${proposed.json().pending.id}/approve`,
      cookie: approver.cookie,
      body: { stepUp: stepUpFor(approver) },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const { rows } = await t.services.pool.query(
      'SELECT user_id, asset_symbol FROM deposit_addresses WHERE address = $1',
      [regtest],
    );
    expect(rows).toEqual([{ user_id: customer, asset_symbol: 'BTC' }]);
  });
});

describe('without chain configuration', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('keeps today’s behaviour: only the addresses staff entered, none derived', async () => {
    const user = await verifiedCustomer(plain);
    await plain.services.pool.query(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address)
       VALUES ($1, 'BTC', 'bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')`,
      [user.userId],
    );
    const res = await call(plain, { url: '/api/deposit-addresses', cookie: user.cookie });
    expect(res.json().addresses.map((a: Listed) => [a.assetId, a.address])).toEqual([
      ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ]);
    const { rows } = await plain.services.pool.query(
      'SELECT count(*)::int AS n FROM deposit_addresses WHERE derivation_index IS NOT NULL',
    );
    expect(rows[0]).toEqual({ n: 0 });
    const counters = await plain.services.pool.query('SELECT * FROM chain_address_counters');
    expect(counters.rows).toEqual([]);
  });
});
