import { ADMIN_WALLET_MSG } from '@coffer/shared';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  errorOf,
  newSession,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import {
  expectReconciled,
  fund,
  GOOD_ADDRESS,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
  transactionCount,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let admin: SignedInUser;

// Addresses that pass their network's checks (BIP-173, EIP-55, Tron and Solana examples).
const BTC_ADDRESSES = [
  'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
];
const ETH_ADDRESS = '0xde709f2102306220921060314715629080e2fb77';
const SOL_ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  // BTC 65,000.00, ETH 3,000.00, USDT 1.
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  admin = await spareStepUps(t, await verifiedAdmin(t));
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

type Wallet = { id: string; assetId: string; balance: string; held: string; usdValue: string };

async function walletsOf(user: SignedInUser): Promise<Wallet[]> {
  const res = await call(t, {
    url: `/api/admin/users/${user.userId}/wallets`,
    cookie: admin.cookie,
  });
  expect(res.statusCode).toBe(200);
  return res.json().wallets;
}

async function walletId(user: SignedInUser, assetId: string): Promise<string> {
  const wallet = (await walletsOf(user)).find((w) => w.assetId === assetId);
  if (!wallet) throw new Error(`no ${assetId} wallet`);
  return wallet.id;
}

function setBalance(id: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/wallets/${id}/balance`,
    cookie: admin.cookie,
    // As the admin's browser sends it: with a fresh second factor unless the body brings one.
    body: 'stepUp' in body ? body : { ...body, stepUp: stepUpFor(admin) },
    ...(headers ? { headers } : {}),
  });
}

async function auditRows(action: string, targetId: string) {
  const { rows } = await t.services.pool.query<{
    actor_id: string;
    target_user_id: string | null;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    reason: string | null;
    ip: string | null;
  }>(
    'SELECT actor_id, target_user_id, before, after, reason, ip FROM audit_log WHERE action = $1 AND target_id = $2 ORDER BY id',
    [action, targetId],
  );
  return rows;
}

describe('who may call', () => {
  const routes = [
    ['GET', '/api/admin/users/00000000-0000-4000-8000-000000000000/wallets'],
    ['GET', '/api/admin/users/00000000-0000-4000-8000-000000000000/deposit-addresses'],
    ['PATCH', '/api/admin/wallets/00000000-0000-4000-8000-000000000000/address'],
    ['POST', '/api/admin/wallets/00000000-0000-4000-8000-000000000000/balance'],
    ['GET', '/api/admin/deposit-addresses'],
    ['POST', '/api/admin/deposit-addresses'],
    ['PATCH', '/api/admin/deposit-addresses/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/api/admin/deposit-addresses/00000000-0000-4000-8000-000000000000'],
  ] as const;

  it('refuses anonymous callers, customers and admins who have not passed 2FA', async () => {
    const customer = await verifiedCustomer(t);
    const unverifiedAdmin = await newSession(t, admin);
    for (const [method, url] of routes) {
      const body = method === 'GET' ? {} : { body: {} };
      const anonymous = await call(t, { method, url, ...body });
      expect([method, url, anonymous.statusCode]).toEqual([method, url, 401]);
      const asCustomer = await call(t, { method, url, cookie: customer.cookie, ...body });
      expect([method, url, asCustomer.statusCode, errorOf(asCustomer).error]).toEqual([
        method,
        url,
        403,
        'FORBIDDEN',
      ]);
      const halfSignedIn = await call(t, { method, url, cookie: unverifiedAdmin, ...body });
      expect([method, url, halfSignedIn.statusCode]).toEqual([method, url, 403]);
    }
  });
});

describe('a customer\u2019s wallets', () => {
  it('lists each wallet with its balance, hold, available amount and USD value', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '0.5');
    const btc = (await walletsOf(customer)).find((w) => w.assetId === 'BTC');
    expect(btc).toMatchObject({
      assetId: 'BTC',
      symbol: 'BTC',
      network: 'bitcoin',
      balance: '0.5',
      held: '0',
      available: '0.5',
      usdValue: '32500.00',
      isActive: true,
    });
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await call(t, {
      url: '/api/admin/users/00000000-0000-4000-8000-000000000000/wallets',
      cookie: admin.cookie,
    });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe(ADMIN_WALLET_MSG.userNotFound);
  });
});

describe('editing a balance', () => {
  it('posts a credit adjustment for the difference, with the reason, seen in the customer\u2019s history', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const id = await walletId(customer, 'BTC');

    const res = await setBalance(id, { newBalance: '1.5', reason: 'Goodwill credit, ticket 42' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.wallet).toMatchObject({ balance: '1.5', usdValue: '97500.00' });
    expect(body.transaction).toMatchObject({
      type: 'adjustment',
      direction: 'credit',
      amount: '0.5',
      status: 'completed',
      reason: 'Goodwill credit, ticket 42',
    });
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1.5', held: '0' });

    const { rows } = await t.services.pool.query(
      'SELECT created_by, transaction_type FROM transactions WHERE id = $1',
      [body.transaction.id],
    );
    expect(rows[0]).toEqual({ created_by: admin.userId, transaction_type: 'adjustment' });

    const history = await call(t, { url: '/api/transactions', cookie: customer.cookie });
    expect(history.statusCode).toBe(200);
    const shown = JSON.stringify(history.json());
    expect(shown).toContain(body.transaction.id);
    expect(shown).toContain('Goodwill credit, ticket 42');

    const audit = await auditRows('wallet.balance.adjust', id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.userId,
      target_user_id: customer.userId,
      before: { assetId: 'BTC', balance: '1', held: '0' },
      after: { assetId: 'BTC', balance: '1.5', transactionId: body.transaction.id, amount: '0.5' },
      reason: 'Goodwill credit, ticket 42',
    });
    expect(audit[0]?.ip).toBeTruthy();
  });

  it('posts a debit adjustment when the new balance is lower, down to zero', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'ETH', '2');
    const id = await walletId(customer, 'ETH');

    const lower = await setBalance(id, { newBalance: '0.25', reason: 'Duplicate credit reversed' });
    expect(lower.statusCode).toBe(200);
    expect(lower.json().transaction).toMatchObject({ direction: 'debit', amount: '1.75' });
    expect(lower.json().wallet).toMatchObject({ balance: '0.25', usdValue: '750.00' });

    const zero = await setBalance(id, { newBalance: '0', reason: 'Account closed' });
    expect(zero.statusCode).toBe(200);
    expect(await walletOf(t, customer.userId, 'ETH')).toEqual({ balance: '0', held: '0' });
  });

  it('refuses a balance below what pending withdrawals hold, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const withdrawal = await requestWithdrawal(t, customer, {
      assetId: 'BTC',
      amount: '0.4',
      address: GOOD_ADDRESS.BTC,
    });
    expect(withdrawal.statusCode).toBe(200);
    const id = await walletId(customer, 'BTC');

    const res = await withoutChange(t, () =>
      setBalance(id, { newBalance: '0.4', reason: 'Trying to go below the hold' }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe(
      'The balance cannot be set below 0.4001 BTC: that much is held for pending withdrawals.',
    );

    // Exactly the hold is allowed: nothing is left available.
    const atHold = await setBalance(id, { newBalance: '0.4001', reason: 'Down to the hold' });
    expect(atHold.statusCode).toBe(200);
    expect(atHold.json().wallet).toMatchObject({ balance: '0.4001', available: '0' });
  });

  it('refuses what is not a non-negative number, too precise, unchanged, or without a reason', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const id = await walletId(customer, 'BTC');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ newBalance: 'abc', reason: 'x' }, ADMIN_WALLET_MSG.invalidBalance],
      [{ newBalance: '-1', reason: 'x' }, ADMIN_WALLET_MSG.invalidBalance],
      [{ newBalance: '', reason: 'x' }, ADMIN_WALLET_MSG.invalidBalance],
      [{ newBalance: '1e3', reason: 'x' }, ADMIN_WALLET_MSG.invalidBalance],
      [{ newBalance: 2, reason: 'x' }, ADMIN_WALLET_MSG.invalidBalance],
      [{ reason: 'x' }, ADMIN_WALLET_MSG.invalidBalance],
      [
        { newBalance: '1.123456789', reason: 'x' },
        'BTC balances can have at most 8 decimal places.',
      ],
      [{ newBalance: '1.00000000', reason: 'x' }, ADMIN_WALLET_MSG.balanceUnchanged],
      // The column holds 20 whole digits; a balance that fills it leaves no room to credit.
      [{ newBalance: '99999999999999999999', reason: 'x' }, ADMIN_WALLET_MSG.balanceTooLarge],
      [{ newBalance: '1000000000000000', reason: 'x' }, ADMIN_WALLET_MSG.balanceTooLarge],
      [{ newBalance: '999999999999999', reason: 'x' }, ADMIN_WALLET_MSG.balanceValueTooLarge],
      [{ newBalance: '2' }, ADMIN_WALLET_MSG.reasonRequired],
      [{ newBalance: '2', reason: '   ' }, ADMIN_WALLET_MSG.reasonRequired],
    ];
    for (const [body, message] of cases) {
      const res = await withoutChange(t, () => setBalance(id, body));
      expect([body, res.statusCode, errorOf(res).message]).toEqual([body, 400, message]);
    }
  });

  it('answers 404 for a wallet that does not exist', async () => {
    const res = await withoutChange(t, () =>
      setBalance('00000000-0000-4000-8000-000000000000', { newBalance: '1', reason: 'x' }),
    );
    expect(res.statusCode).toBe(404);
  });

  it('honours an Idempotency-Key: a repeat gets the first answer and posts nothing more', async () => {
    const customer = await verifiedCustomer(t);
    const id = await walletId(customer, 'USDT-ERC20');
    const body = { newBalance: '250.5', reason: 'Promotional credit' };
    const first = await setBalance(id, body, { 'idempotency-key': 'adj-1' });
    expect(first.statusCode).toBe(200);
    const repeat = await setBalance(id, body, { 'idempotency-key': 'adj-1' });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(first.json());
    expect(await transactionCount(t, customer.userId)).toBe(1);
    expect(await walletOf(t, customer.userId, 'USDT-ERC20')).toEqual({
      balance: '250.5',
      held: '0',
    });
    const other = await setBalance(
      id,
      { ...body, newBalance: '1' },
      { 'idempotency-key': 'adj-1' },
    );
    expect(other.statusCode).toBe(409);
  });
});

describe('editing a wallet address', () => {
  function setAddress(id: string, body: Record<string, unknown>) {
    return call(t, {
      method: 'PATCH',
      url: `/api/admin/wallets/${id}/address`,
      cookie: admin.cookie,
      body,
    });
  }

  it('saves an address valid for the wallet\u2019s network and audits it', async () => {
    const customer = await verifiedCustomer(t);
    const id = await walletId(customer, 'ETH');
    const res = await setAddress(id, { address: `  ${ETH_ADDRESS}  ` });
    expect(res.statusCode).toBe(200);
    expect(res.json().wallet).toMatchObject({ id, address: ETH_ADDRESS });
    const audit = await auditRows('wallet.address.update', id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.userId,
      target_user_id: customer.userId,
      before: { address: null },
      after: { address: ETH_ADDRESS },
    });
  });

  it('refuses an empty address or one of another network, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    const id = await walletId(customer, 'BTC');
    const empty = await withoutChange(t, () => setAddress(id, { address: '   ' }));
    expect([empty.statusCode, errorOf(empty).message]).toEqual([400, 'Address cannot be empty']);
    const wrong = await withoutChange(t, () => setAddress(id, { address: ETH_ADDRESS }));
    expect([wrong.statusCode, errorOf(wrong).message]).toEqual([
      400,
      'Invalid Bitcoin address format',
    ]);
  });
});

describe('deposit addresses', () => {
  function add(body: Record<string, unknown>) {
    return call(t, {
      method: 'POST',
      url: '/api/admin/deposit-addresses',
      cookie: admin.cookie,
      body,
    });
  }
  function edit(id: string, body: Record<string, unknown>) {
    return call(t, {
      method: 'PATCH',
      url: `/api/admin/deposit-addresses/${id}`,
      cookie: admin.cookie,
      body,
    });
  }
  async function customerSees(user: SignedInUser): Promise<string[]> {
    const res = await call(t, { url: '/api/deposit-addresses', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    return res.json().addresses.map((a: { address: string }) => a.address);
  }

  it('adds an address the customer then sees on the deposit page, audited', async () => {
    const customer = await verifiedCustomer(t);
    const res = await add({
      userId: customer.userId,
      assetSymbol: 'BTC',
      network: 'bitcoin',
      address: BTC_ADDRESSES[0],
    });
    expect(res.statusCode).toBe(200);
    const created = res.json().address;
    expect(created).toMatchObject({
      userId: customer.userId,
      assetSymbol: 'BTC',
      network: 'bitcoin',
      address: BTC_ADDRESSES[0],
      isActive: true,
      user: { id: customer.userId, email: customer.email },
    });
    expect(await customerSees(customer)).toEqual([BTC_ADDRESSES[0]]);

    const all = await call(t, { url: '/api/admin/deposit-addresses', cookie: admin.cookie });
    expect(all.json().addresses[0]).toMatchObject({ id: created.id });
    const mine = await call(t, {
      url: `/api/admin/users/${customer.userId}/deposit-addresses`,
      cookie: admin.cookie,
    });
    expect(mine.json().addresses.map((a: { id: string }) => a.id)).toEqual([created.id]);

    const audit = await auditRows('deposit_address.create', created.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.userId,
      target_user_id: customer.userId,
      before: null,
      after: { address: BTC_ADDRESSES[0], network: 'bitcoin', assetSymbol: 'BTC' },
    });
  });

  it('refuses missing fields, unknown assets and networks, and addresses not of the network', async () => {
    const customer = await verifiedCustomer(t);
    const good = {
      userId: customer.userId,
      assetSymbol: 'SOL',
      network: 'solana',
      address: SOL_ADDRESS,
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, userId: undefined }, ADMIN_WALLET_MSG.requiredFields],
      [{ ...good, assetSymbol: undefined }, ADMIN_WALLET_MSG.requiredFields],
      [{ ...good, address: '  ' }, ADMIN_WALLET_MSG.requiredFields],
      [{ ...good, address: undefined }, ADMIN_WALLET_MSG.requiredFields],
      [{ ...good, assetSymbol: 'AVAX' }, ADMIN_WALLET_MSG.unsupportedAssetSymbol],
      [{ ...good, network: 'tron' }, 'Please choose a network from the list.'],
      [{ ...good, network: 'bitcoin' }, 'Invalid Bitcoin address format'],
      [{ ...good, network: 'polygon' }, 'Invalid Polygon address format'],
    ];
    for (const [body, message] of cases) {
      const res = await withoutChange(t, () => add(body));
      expect([body, res.statusCode, errorOf(res).message]).toEqual([body, 400, message]);
    }
    const unknownUser = await withoutChange(t, () =>
      add({ ...good, userId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(unknownUser.statusCode).toBe(404);
    const ok = await add(good);
    expect(ok.statusCode).toBe(200);
  });

  it('gives an address to one customer only', async () => {
    const first = await verifiedCustomer(t);
    const second = await verifiedCustomer(t);
    const body = { assetSymbol: 'ETH', network: 'ethereum', address: ETH_ADDRESS };
    expect((await add({ ...body, userId: first.userId })).statusCode).toBe(200);
    // The same address in other letter case is the same Ethereum address.
    for (const address of [ETH_ADDRESS, ETH_ADDRESS.toUpperCase().replace('0X', '0x')]) {
      const res = await withoutChange(t, () => add({ ...body, address, userId: second.userId }));
      expect([res.statusCode, errorOf(res).message]).toEqual([409, ADMIN_WALLET_MSG.addressTaken]);
    }
    expect(await customerSees(second)).toEqual([]);
  });

  it('edits asset, network, address and status; an inactive address is not shown', async () => {
    const customer = await verifiedCustomer(t);
    const created = (
      await add({
        userId: customer.userId,
        assetSymbol: 'BTC',
        network: 'bitcoin',
        address: BTC_ADDRESSES[1],
      })
    ).json().address;

    const moved = await edit(created.id, { address: BTC_ADDRESSES[2] });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().address).toMatchObject({ address: BTC_ADDRESSES[2], network: 'bitcoin' });

    // The address must fit the network it ends up on.
    const mismatch = await withoutChange(t, () => edit(created.id, { network: 'ethereum' }));
    expect([mismatch.statusCode, errorOf(mismatch).message]).toEqual([
      400,
      'Invalid Ethereum address format',
    ]);
    const empty = await withoutChange(t, () => edit(created.id, { address: '' }));
    expect([empty.statusCode, errorOf(empty).message]).toEqual([
      400,
      ADMIN_WALLET_MSG.requiredFields,
    ]);

    const usdt = await edit(created.id, {
      assetSymbol: 'USDT',
      network: 'trc20',
      address: GOOD_ADDRESS['USDT-TRC20'],
    });
    expect(usdt.json().address).toMatchObject({ assetSymbol: 'USDT', network: 'trc20' });
    expect(await customerSees(customer)).toEqual([GOOD_ADDRESS['USDT-TRC20']]);

    const off = await edit(created.id, { isActive: false });
    expect(off.json().address.isActive).toBe(false);
    expect(await customerSees(customer)).toEqual([]);

    const audit = await auditRows('deposit_address.update', created.id);
    expect(audit).toHaveLength(3);
    expect(audit[2]).toMatchObject({
      before: { isActive: true, network: 'trc20' },
      after: { isActive: false, network: 'trc20' },
    });
  });

  it('refuses to move an address onto one another customer has', async () => {
    const first = await verifiedCustomer(t);
    const second = await verifiedCustomer(t);
    const taken = '0x52908400098527886E0F7030069857D2E4169EE7';
    await add({ userId: first.userId, assetSymbol: 'BNB', network: 'bep20', address: taken });
    const mine = (
      await add({
        userId: second.userId,
        assetSymbol: 'BNB',
        network: 'bep20',
        address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
      })
    ).json().address;
    const res = await withoutChange(t, () => edit(mine.id, { address: taken }));
    expect([res.statusCode, errorOf(res).message]).toEqual([409, ADMIN_WALLET_MSG.addressTaken]);
  });

  it('finds addresses by customer e-mail, address or asset, newest first', async () => {
    const customer = await verifiedCustomer(t);
    const a = (
      await add({
        userId: customer.userId,
        assetSymbol: 'XRP',
        network: 'ethereum',
        address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      })
    ).json().address;
    const b = (
      await add({
        userId: customer.userId,
        assetSymbol: 'DOGE',
        network: 'polygon',
        address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      })
    ).json().address;
    const search = async (q: string) => {
      const res = await call(t, {
        url: `/api/admin/deposit-addresses?q=${encodeURIComponent(q)}`,
        cookie: admin.cookie,
      });
      expect(res.statusCode).toBe(200);
      return res.json().addresses.map((x: { id: string }) => x.id);
    };
    expect(await search(customer.email.toUpperCase())).toEqual([b.id, a.id]);
    expect(await search('dbf03b407c')).toEqual([b.id]);
    expect(await search('xrp')).toContain(a.id);
    expect(await search('%')).toEqual([]);
  });

  it('deletes an address, audited with what it was', async () => {
    const customer = await verifiedCustomer(t);
    const created = (
      await add({
        userId: customer.userId,
        assetSymbol: 'ADA',
        network: 'ethereum',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      })
    ).json().address;
    const res = await call(t, {
      method: 'DELETE',
      url: `/api/admin/deposit-addresses/${created.id}`,
      cookie: admin.cookie,
      body: { stepUp: stepUpFor(admin) },
    });
    expect(res.statusCode).toBe(200);
    expect(await customerSees(customer)).toEqual([]);
    const audit = await auditRows('deposit_address.delete', created.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.userId,
      target_user_id: customer.userId,
      before: { assetSymbol: 'ADA', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      after: null,
    });
    const again = await withoutChange(t, () =>
      call(t, {
        method: 'DELETE',
        url: `/api/admin/deposit-addresses/${created.id}`,
        cookie: admin.cookie,
        body: { stepUp: stepUpFor(admin) },
      }),
    );
    expect([again.statusCode, errorOf(again).message]).toEqual([
      404,
      ADMIN_WALLET_MSG.depositAddressNotFound,
    ]);
  });

  it('keeps the audit chain intact after all of the above', async () => {
    expect(await t.services.audit.verify(t.services.pool)).toMatchObject({ ok: true });
  });
});
