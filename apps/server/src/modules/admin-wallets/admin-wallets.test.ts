import { randomBytes } from 'node:crypto';
import { ADMIN_WALLET_MSG, balanceMovedText, STAFF_MSG } from '@coffer/shared';
import { bech32 } from '@scure/base';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  databaseText,
  errorOf,
  mailsTo,
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
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
/** Proposes (every role). */
let admin: SignedInUser;
/** Approves what `admin` proposes (every role). */
let approver: SignedInUser;
/** May propose money changes, not approve them. */
let treasurer: SignedInUser;
/** May neither propose nor approve them. */
let support: SignedInUser;

// Addresses that pass their network's checks (BIP-173, EIP-55, Tron and Solana examples).
const BTC_ADDRESSES = [
  'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
] as const;
const ETH_ADDRESS = '0xde709f2102306220921060314715629080e2fb77';
const SOL_ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
/** A Bitcoin address (P2WPKH, bc1q…) nobody has been given yet. */
const newBitcoinAddress = () => bech32.encode('bc', [0, ...bech32.toWords(randomBytes(20))]);
/** An Ethereum address in lower case (no checksum to get wrong) nobody has been given yet. */
const newEthereumAddress = () => `0x${randomBytes(20).toString('hex')}`;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  // BTC 65,000.00, ETH 3,000.00, USDT 1.
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  [admin, approver, treasurer, support] = await Promise.all([
    verifiedAdmin(t).then((u) => spareStepUps(t, u)),
    verifiedAdmin(t).then((u) => spareStepUps(t, u)),
    verifiedAdmin(t, ['treasurer']).then((u) => spareStepUps(t, u)),
    verifiedAdmin(t, ['support']).then((u) => spareStepUps(t, u)),
  ]);
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
// Every proposal and approval uses up a code: top the staff's up between tests.
beforeEach(async () => {
  for (const staff of [admin, approver, treasurer, support]) await spareStepUps(t, staff);
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

type Wallet = { id: string; assetId: string; balance: string; held: string; usdValue: string };
type Res = LightMyRequestResponse;

async function walletsOf(user: Customer): Promise<Wallet[]> {
  const res = await call(t, {
    url: `/api/admin/users/${user.userId}/wallets`,
    cookie: admin.cookie,
  });
  expect(res.statusCode).toBe(200);
  return res.json().wallets;
}

async function walletId(user: Customer, assetId: string): Promise<string> {
  const wallet = (await walletsOf(user)).find((w) => w.assetId === assetId);
  if (!wallet) throw new Error(`no ${assetId} wallet`);
  return wallet.id;
}

/** The staff member's request as their browser sends it: with a fresh second factor. */
function withStepUp(as: SignedInUser, body: Record<string, unknown>) {
  return 'stepUp' in body ? body : { ...body, stepUp: stepUpFor(as) };
}

function setBalance(
  id: string,
  body: Record<string, unknown>,
  as = admin,
  headers?: Record<string, string>,
) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/wallets/${id}/balance`,
    cookie: as.cookie,
    body: withStepUp(as, body),
    ...(headers ? { headers } : {}),
  });
}

function setWalletAddress(id: string, body: Record<string, unknown>, as = admin) {
  return call(t, {
    method: 'PATCH',
    url: `/api/admin/wallets/${id}/address`,
    cookie: as.cookie,
    body: withStepUp(as, body),
  });
}

function addAddress(body: Record<string, unknown>, as = admin) {
  return call(t, {
    method: 'POST',
    url: '/api/admin/deposit-addresses',
    cookie: as.cookie,
    body: withStepUp(as, body),
  });
}

function editAddress(id: string, body: Record<string, unknown>, as = admin) {
  return call(t, {
    method: 'PATCH',
    url: `/api/admin/deposit-addresses/${id}`,
    cookie: as.cookie,
    body: withStepUp(as, body),
  });
}

function deleteAddress(id: string, as = admin) {
  return call(t, {
    method: 'DELETE',
    url: `/api/admin/deposit-addresses/${id}`,
    cookie: as.cookie,
    body: { stepUp: stepUpFor(as) },
  });
}

/** `who` approves a proposed change, with a fresh second factor of theirs. */
function approve(id: string, who = approver) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/changes/${id}/approve`,
    cookie: who.cookie,
    body: { stepUp: stepUpFor(who) },
  });
}

function reject(id: string, who = approver) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/changes/${id}/reject`,
    cookie: who.cookie,
    body: { stepUp: stepUpFor(who) },
  });
}

/** The id of the change a 202 answer proposed. */
function pendingId(res: Res): string {
  expect(res.statusCode, res.body).toBe(202);
  return res.json().pending.id;
}

/** Proposed by `admin` and approved by `approver`: the change applied; its id. */
async function applied(proposal: Promise<Res>): Promise<string> {
  const id = pendingId(await proposal);
  const res = await approve(id);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().change).toMatchObject({ id, status: 'approved' });
  return id;
}

/** The tables a proposal writes: the change, its audit row, the proposer's step-up. */
const PROPOSAL_TABLES = [
  'staff_changes',
  'audit_log',
  'backup_codes',
  'user_two_factor',
  'idempotency_keys',
  // What withoutChange leaves out too: counters, refused attempts, the idle timer.
  'rate_limits',
  'security_events',
  'sessions',
];

async function auditSince(id: number) {
  const { rows } = await t.services.pool.query<{
    id: number;
    action: string;
    actor_id: string;
    target_type: string;
    target_id: string;
    target_user_id: string | null;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    reason: string | null;
    ip: string | null;
  }>(
    `SELECT id::int, action, actor_id, target_type, target_id, target_user_id, before, after,
            reason, ip FROM audit_log WHERE id > $1 ORDER BY id`,
    [id],
  );
  return rows;
}

const lastAuditId = async () =>
  (
    await t.services.pool.query<{ n: number }>(
      'SELECT coalesce(max(id), 0)::int AS n FROM audit_log',
    )
  ).rows[0]?.n ?? 0;

async function changeRow(id: string) {
  const { rows } = await t.services.pool.query<{
    kind: string;
    status: string;
    proposed_by: string;
    decided_by: string | null;
    subject_user_id: string | null;
    funds_subject: boolean;
  }>(
    'SELECT kind, status, proposed_by, decided_by, subject_user_id, funds_subject FROM staff_changes WHERE id = $1',
    [id],
  );
  return rows[0];
}

/**
 * Runs a proposal and proves what it wrote: a 202 with the pending change, one pending
 * `staff_changes` row and its one `change.propose` audit row, the step-up used; every other
 * table (balances, ledger rows, addresses, requests, the outbox) as it was, and no mail.
 */
async function onlyProposes(act: () => Promise<Res>): Promise<Res> {
  const before = await databaseText(t, PROPOSAL_TABLES);
  const audit = await lastAuditId();
  const mails = t.mails().length;
  const res = await act();
  expect(res.statusCode, res.body).toBe(202);
  expect(await databaseText(t, PROPOSAL_TABLES)).toEqual(before);
  expect(t.mails().length).toBe(mails);
  const { id } = res.json().pending;
  expect((await auditSince(audit)).map((r) => [r.action, r.target_id])).toEqual([
    ['change.propose', id],
  ]);
  expect(await changeRow(id)).toMatchObject({ status: 'pending' });
  return res;
}

/** A mail's text with its header folds and quoted-printable soft breaks undone. */
const unfolded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' ');

/** The mails to `email` whose subject is `subject`. */
const mailsWithSubject = (email: string, subject: string) =>
  mailsTo(t, email)
    .map(unfolded)
    .filter((m) => m.includes(`Subject: ${subject}`));

async function insertAddress(
  userId: string,
  a: { assetSymbol: string; network: string; address: string; isActive?: boolean },
): Promise<string> {
  const { rows } = await t.services.pool.query<{ id: string }>(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, is_active)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [userId, a.assetSymbol, a.network, a.address, a.isActive ?? true],
  );
  return rows[0]?.id ?? '';
}

async function addressRows(userId: string) {
  const { rows } = await t.services.pool.query<{
    asset_symbol: string;
    network: string;
    address: string;
    is_active: boolean;
  }>(
    `SELECT asset_symbol, network, address, is_active FROM deposit_addresses
      WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows;
}

async function walletAddress(id: string) {
  const { rows } = await t.services.pool.query<{ wallet_address: string | null }>(
    'SELECT wallet_address FROM user_wallets WHERE id = $1',
    [id],
  );
  return rows[0]?.wallet_address ?? null;
}

/** A customer as staff act on them: who, and where their mail goes. */
type Customer = Pick<SignedInUser, 'userId' | 'email'>;

/**
 * A customer account with its wallets, made directly: quicker than signing one up, for tests
 * that never act as the customer.
 */
async function account(): Promise<Customer> {
  const email = `customer-${randomBytes(6).toString('hex')}@example.com`;
  const made = await t.services.users.create({ email, passwordHash: 'not a hash', verified: true });
  if (!made) throw new Error(`${email} is taken`);
  return { userId: made.id, email };
}

async function customerSees(user: SignedInUser): Promise<string[]> {
  const res = await call(t, { url: '/api/deposit-addresses', cookie: user.cookie });
  expect(res.statusCode).toBe(200);
  return res.json().addresses.map((a: { address: string }) => a.address);
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

/**
 * Every balance and address change, one by one: what is proposed and what it applies. Each
 * `prepare` makes the customer's state and answers how to propose the change, what to read
 * of the customer's state, what it must read once applied and the mail they get.
 */
type Prepared = {
  propose(as: SignedInUser): Promise<Res>;
  state(): Promise<unknown>;
  after: unknown;
  summary: string;
  subject: string;
};
type Action = { name: string; kind: string; prepare(c: Customer): Promise<Prepared> };

const ACTIONS: Action[] = [
  {
    name: 'a balance edit',
    kind: 'wallet.balance.adjust',
    async prepare(c) {
      await fund(t, c.userId, 'BTC', '0.5');
      const id = await walletId(c, 'BTC');
      const state = async () => ({
        wallet: await walletOf(t, c.userId, 'BTC'),
        rows: await transactionCount(t, c.userId),
      });
      return {
        propose: (as) => setBalance(id, { newBalance: '3', reason: 'Goodwill, ticket 42' }, as),
        state,
        after: { wallet: { balance: '3', held: '0' }, rows: 2 },
        summary: `Set ${c.email}'s BTC balance from 0.5 to 3 (credit 2.5 BTC)`,
        subject: 'Your BTC balance was adjusted',
      };
    },
  },
  {
    name: "a wallet's address",
    kind: 'wallet.address.update',
    async prepare(c) {
      const id = await walletId(c, 'ETH');
      const address = newEthereumAddress();
      return {
        propose: (as) => setWalletAddress(id, { address }, as),
        state: () => walletAddress(id),
        after: address,
        summary: `Set the address of ${c.email}'s ETH wallet to ${address}`,
        subject: 'The address of your ETH wallet was changed',
      };
    },
  },
  {
    name: 'adding a deposit address',
    kind: 'deposit-address.create',
    async prepare(c) {
      const address = newBitcoinAddress();
      return {
        propose: (as) =>
          addAddress({ userId: c.userId, assetSymbol: 'BTC', network: 'bitcoin', address }, as),
        state: () => addressRows(c.userId),
        after: [{ asset_symbol: 'BTC', network: 'bitcoin', address, is_active: true }],
        summary: `Add ${c.email}'s BTC (bitcoin) deposit address ${address}`,
        subject: 'A BTC (Bitcoin Network) deposit address was added to your account',
      };
    },
  },
  {
    name: 'changing a deposit address',
    kind: 'deposit-address.update',
    async prepare(c) {
      const old = newBitcoinAddress();
      const address = newBitcoinAddress();
      const id = await insertAddress(c.userId, {
        assetSymbol: 'BTC',
        network: 'bitcoin',
        address: old,
      });
      return {
        propose: (as) => editAddress(id, { address }, as),
        state: () => addressRows(c.userId),
        after: [{ asset_symbol: 'BTC', network: 'bitcoin', address, is_active: true }],
        summary: `Change ${c.email}'s BTC (bitcoin) deposit address ${old} to BTC (bitcoin) deposit address ${address}`,
        subject: 'Your BTC (Bitcoin Network) deposit address was changed',
      };
    },
  },
  {
    name: 'deactivating a deposit address',
    kind: 'deposit-address.update',
    async prepare(c) {
      const address = newEthereumAddress();
      const id = await insertAddress(c.userId, {
        assetSymbol: 'ETH',
        network: 'ethereum',
        address,
      });
      return {
        propose: (as) => editAddress(id, { isActive: false }, as),
        state: () => addressRows(c.userId),
        after: [{ asset_symbol: 'ETH', network: 'ethereum', address, is_active: false }],
        summary: `Deactivate ${c.email}'s ETH (ethereum) deposit address ${address}`,
        subject: 'Your ETH (Ethereum Network) deposit address was deactivated',
      };
    },
  },
  {
    name: 'reactivating a deposit address',
    kind: 'deposit-address.update',
    async prepare(c) {
      const address = newEthereumAddress();
      const id = await insertAddress(c.userId, {
        assetSymbol: 'USDT',
        network: 'erc20',
        address,
        isActive: false,
      });
      return {
        propose: (as) => editAddress(id, { isActive: true }, as),
        state: () => addressRows(c.userId),
        after: [{ asset_symbol: 'USDT', network: 'erc20', address, is_active: true }],
        summary: `Reactivate ${c.email}'s USDT (erc20) deposit address ${address}`,
        subject: 'Your USDT (ERC-20) deposit address was reactivated',
      };
    },
  },
  {
    name: 'deleting a deposit address',
    kind: 'deposit-address.delete',
    async prepare(c) {
      const address = newBitcoinAddress();
      const id = await insertAddress(c.userId, { assetSymbol: 'BTC', network: 'bitcoin', address });
      return {
        propose: (as) => deleteAddress(id, as),
        state: () => addressRows(c.userId),
        after: [],
        summary: `Delete ${c.email}'s BTC (bitcoin) deposit address ${address}`,
        subject: 'Your BTC (Bitcoin Network) deposit address was deleted',
      };
    },
  },
];

for (const action of ACTIONS) {
  describe(`${action.name}: two people`, () => {
    it('is only proposed by one staff member: 202 with the pending change, nothing else changes', async () => {
      const customer = await account();
      const p = await action.prepare(customer);
      const before = await p.state();
      const res = await onlyProposes(() => p.propose(admin));
      expect(res.json()).toEqual({
        pending: {
          id: expect.any(String),
          kind: action.kind,
          summary: p.summary,
          before: action.kind === 'deposit-address.create' ? null : expect.any(Object),
          after: action.kind === 'deposit-address.delete' ? null : expect.any(Object),
          proposedBy: { id: admin.userId, email: admin.email },
          proposedAt: expect.any(String),
          expiresAt: expect.any(String),
          subject: { id: customer.userId, email: customer.email },
          status: 'pending',
        },
      });
      expect(await p.state()).toEqual(before);
      const listed = await call(t, { url: '/api/admin/changes', cookie: approver.cookie });
      expect(listed.json().changes.map((c: { id: string }) => c.id)).toContain(
        res.json().pending.id,
      );
    });

    it('applies once when another staff member approves it, mailing the customer once', async () => {
      const customer = await account();
      const p = await action.prepare(customer);
      const id = pendingId(await p.propose(admin));
      const audit = await lastAuditId();
      const res = await approve(id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().change).toMatchObject({ id, status: 'approved', kind: action.kind });
      expect(await p.state()).toEqual(p.after);
      expect(mailsWithSubject(customer.email, p.subject)).toHaveLength(1);
      expect(await changeRow(id)).toMatchObject({
        status: 'approved',
        proposed_by: admin.userId,
        decided_by: approver.userId,
        subject_user_id: customer.userId,
        funds_subject: action.kind === 'wallet.balance.adjust',
      });
      const approval = (await auditSince(audit)).filter((r) => r.target_id === id);
      expect(approval).toEqual([
        expect.objectContaining({
          actor_id: approver.userId,
          target_type: 'staff_change',
          target_user_id: customer.userId,
          reason: p.summary,
          after: expect.objectContaining({ proposedBy: admin.userId }),
        }),
      ]);

      // Decided: approving again is 409 and changes nothing, and mails nothing.
      const again = await withoutChange(t, () => approve(id));
      expect([again.statusCode, errorOf(again).message]).toEqual([409, STAFF_MSG.changeDecided]);
    });

    it('ten parallel approvals apply it exactly once, with one mail', async () => {
      const customer = await account();
      const p = await action.prepare(customer);
      const id = pendingId(await p.propose(admin));
      // The same approver with ten different codes, all at once.
      const results = await Promise.all(Array.from({ length: 10 }, () => approve(id)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
      for (const r of results.filter((x) => x.statusCode === 409)) {
        expect(errorOf(r).message).toBe(STAFF_MSG.changeDecided);
      }
      expect(await p.state()).toEqual(p.after);
      expect(mailsWithSubject(customer.email, p.subject)).toHaveLength(1);
    });

    it('is refused to its proposer, to the customer it concerns, to a treasurer; support cannot propose it', async () => {
      // The customer is staff too (every role): a change to their own account.
      const customer = await spareStepUps(t, await verifiedAdmin(t));
      const p = await action.prepare(customer);
      const before = await p.state();
      const id = pendingId(await p.propose(admin));

      const own = await withoutChange(t, () => approve(id, admin));
      expect([own.statusCode, errorOf(own).message]).toEqual([403, STAFF_MSG.ownProposal]);
      const subject = await withoutChange(t, () => approve(id, customer));
      expect([subject.statusCode, errorOf(subject).message]).toEqual([403, STAFF_MSG.ownAccount]);
      const byTreasurer = await withoutChange(t, () => approve(id, treasurer));
      expect([byTreasurer.statusCode, errorOf(byTreasurer).message]).toEqual([
        403,
        STAFF_MSG.forbiddenRole,
      ]);
      const bySupport = await withoutChange(t, () => p.propose(support));
      expect([bySupport.statusCode, errorOf(bySupport).message]).toEqual([
        403,
        STAFF_MSG.forbiddenRole,
      ]);
      expect(await p.state()).toEqual(before);
      expect(await changeRow(id)).toMatchObject({ status: 'pending' });
    });

    it('may be proposed by a treasurer alone, and applies on an approver’s approval', async () => {
      const customer = await account();
      const p = await action.prepare(customer);
      const res = await onlyProposes(() => p.propose(treasurer));
      expect(res.json().pending.proposedBy).toEqual({
        id: treasurer.userId,
        email: treasurer.email,
      });
      expect((await approve(res.json().pending.id)).statusCode).toBe(200);
      expect(await p.state()).toEqual(p.after);
    });

    it('changes nothing and mails nobody when rejected', async () => {
      const customer = await account();
      const p = await action.prepare(customer);
      const before = await p.state();
      const id = pendingId(await p.propose(admin));
      const mails = mailsTo(t, customer.email).length;
      const res = await reject(id);
      expect(res.statusCode, res.body).toBe(200);
      expect(await changeRow(id)).toMatchObject({ status: 'rejected' });
      expect(await p.state()).toEqual(before);
      expect(mailsTo(t, customer.email)).toHaveLength(mails);
      const late = await withoutChange(t, () => approve(id));
      expect(late.statusCode).toBe(409);
    });
  });
}

describe('a customer\u2019s wallets', () => {
  it('lists each wallet with its balance, hold, available amount and USD value', async () => {
    const customer = await account();
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
  it('posts a credit adjustment on approval: created by the proposer, the approver audited, in the customer\u2019s history', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const id = await walletId(customer, 'BTC');

    const proposed = await setBalance(id, {
      newBalance: '1.5',
      reason: 'Goodwill credit, ticket 42',
    });
    expect(proposed.json().pending).toMatchObject({
      before: { walletId: id, assetId: 'BTC', balance: '1', held: '0' },
      after: {
        walletId: id,
        assetId: 'BTC',
        balance: '1.5',
        held: '0',
        direction: 'credit',
        amount: '0.5',
        reason: 'Goodwill credit, ticket 42',
      },
    });
    const changeId = pendingId(proposed);
    const audit = await lastAuditId();
    const res = await approve(changeId);
    expect(res.statusCode, res.body).toBe(200);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1.5', held: '0' });

    const { rows } = await t.services.pool.query(
      `SELECT id, created_by, transaction_type, direction, status,
              crypto_amount::text AS amount, reason
         FROM transactions WHERE user_id = $1 AND transaction_type = 'adjustment'`,
      [customer.userId],
    );
    expect(rows).toEqual([
      {
        id: expect.any(String),
        created_by: admin.userId,
        transaction_type: 'adjustment',
        direction: 'credit',
        status: 'completed',
        amount: expect.stringMatching(/^0\.50*$/),
        reason: 'Goodwill credit, ticket 42',
      },
    ]);
    const transactionId = rows[0].id;

    const history = await call(t, { url: '/api/transactions', cookie: customer.cookie });
    expect(history.statusCode).toBe(200);
    const shown = JSON.stringify(history.json());
    expect(shown).toContain(transactionId);
    expect(shown).toContain('Goodwill credit, ticket 42');

    const written = await auditSince(audit);
    expect(written.filter((r) => r.action === 'wallet.balance.adjust')).toEqual([
      expect.objectContaining({
        actor_id: approver.userId,
        target_type: 'staff_change',
        target_id: changeId,
        target_user_id: customer.userId,
        before: { walletId: id, assetId: 'BTC', balance: '1', held: '0' },
        after: expect.objectContaining({
          balance: '1.5',
          amount: '0.5',
          direction: 'credit',
          transactionId,
          proposedBy: admin.userId,
        }),
        reason: `Set ${customer.email}'s BTC balance from 1 to 1.5 (credit 0.5 BTC)`,
      }),
    ]);
    expect(written.find((r) => r.action === 'wallet.balance.adjust')?.ip).toBeTruthy();

    const mail = mailsWithSubject(customer.email, 'Your BTC balance was adjusted');
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain('Coffer staff credited 0.5 BTC to your BTC wallet');
    expect(mail[0]).toContain('The reason given: Goodwill credit, ticket 42');
  });

  it('posts a debit adjustment when the new balance is lower, down to zero', async () => {
    const customer = await account();
    await fund(t, customer.userId, 'ETH', '2');
    const id = await walletId(customer, 'ETH');

    const lower = await setBalance(id, { newBalance: '0.25', reason: 'Duplicate credit reversed' });
    expect(lower.json().pending.summary).toBe(
      `Set ${customer.email}'s ETH balance from 2 to 0.25 (debit 1.75 ETH)`,
    );
    await applied(Promise.resolve(lower));
    expect(await walletOf(t, customer.userId, 'ETH')).toEqual({ balance: '0.25', held: '0' });
    expect(mailsWithSubject(customer.email, 'Your ETH balance was adjusted')[0]).toContain(
      'Coffer staff debited 1.75 ETH from your ETH wallet',
    );

    await applied(setBalance(id, { newBalance: '0', reason: 'Account closed' }));
    expect(await walletOf(t, customer.userId, 'ETH')).toEqual({ balance: '0', held: '0' });
  });

  it('refuses to propose a balance below what pending withdrawals hold, changing nothing', async () => {
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
    await applied(setBalance(id, { newBalance: '0.4001', reason: 'Down to the hold' }));
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({
      balance: '0.4001',
      held: '0.4001',
    });
  });

  it('refuses on approval (409) when the balance moved since the proposal, or the hold grew above it', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const id = await walletId(customer, 'BTC');
    const moved = pendingId(await setBalance(id, { newBalance: '3', reason: 'Credit' }));
    // A deposit lands between the proposal and its approval.
    await fund(t, customer.userId, 'BTC', '0.5');
    const refused = await withoutChange(t, () => approve(moved));
    expect([refused.statusCode, errorOf(refused).message]).toEqual([
      409,
      balanceMovedText('1', '1.5', 'BTC'),
    ]);
    expect(await changeRow(moved)).toMatchObject({ status: 'pending' });
    expect((await reject(moved)).statusCode).toBe(200);

    // The balance is as proposed, but a withdrawal now holds more than the target leaves.
    const lower = pendingId(await setBalance(id, { newBalance: '0.1', reason: 'Correction' }));
    expect(
      (
        await requestWithdrawal(t, customer, {
          assetId: 'BTC',
          amount: '0.5',
          address: GOOD_ADDRESS.BTC,
        })
      ).statusCode,
    ).toBe(200);
    const held = await withoutChange(t, () => approve(lower));
    expect([held.statusCode, errorOf(held).message]).toEqual([
      409,
      'The balance cannot be set below 0.5001 BTC: that much is held for pending withdrawals.',
    ]);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1.5', held: '0.5001' });
  });

  it('refuses what is not a non-negative number, too precise, unchanged, or without a reason', async () => {
    const customer = await account();
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

  it('honours an Idempotency-Key: a repeat gets the first answer and proposes nothing more', async () => {
    const customer = await account();
    const id = await walletId(customer, 'USDT-ERC20');
    const body = { newBalance: '250.5', reason: 'Promotional credit' };
    const first = await setBalance(id, body, admin, { 'idempotency-key': 'adj-1' });
    expect(first.statusCode).toBe(202);
    expect(first.json().pending.summary).toBe(
      `Set ${customer.email}'s USDT (ERC-20) balance from 0 to 250.5 (credit 250.5 USDT)`,
    );
    const repeat = await withoutChange(t, () =>
      setBalance(id, body, admin, { 'idempotency-key': 'adj-1' }),
    );
    expect(repeat.statusCode).toBe(202);
    expect(repeat.json()).toEqual(first.json());
    const { rows } = await t.services.pool.query(
      'SELECT count(*)::int AS n FROM staff_changes WHERE subject_user_id = $1',
      [customer.userId],
    );
    expect(rows[0]).toEqual({ n: 1 });
    const other = await withoutChange(t, () =>
      setBalance(id, { ...body, newBalance: '1' }, admin, { 'idempotency-key': 'adj-1' }),
    );
    expect(other.statusCode).toBe(409);

    expect((await approve(first.json().pending.id)).statusCode).toBe(200);
    expect(await transactionCount(t, customer.userId)).toBe(1);
    expect(await walletOf(t, customer.userId, 'USDT-ERC20')).toEqual({
      balance: '250.5',
      held: '0',
    });
  });

  it('a newer proposal for the same wallet replaces the pending older one', async () => {
    const customer = await account();
    const id = await walletId(customer, 'BTC');
    const older = pendingId(await setBalance(id, { newBalance: '1', reason: 'First' }));
    const newer = pendingId(await setBalance(id, { newBalance: '2', reason: 'Second' }));
    expect(await changeRow(older)).toMatchObject({ status: 'replaced' });
    const stale = await withoutChange(t, () => approve(older));
    expect(stale.statusCode).toBe(409);
    expect((await approve(newer)).statusCode).toBe(200);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '2', held: '0' });
  });
});

describe('the 30-day rule: who funded a customer does not approve their payouts', () => {
  it('admin A proposes 0 \u2192 3 BTC, admin B approves, the customer withdraws 0.2: neither A nor B may approve that payout', async () => {
    const customer = await spareStepUps(t, await verifiedCustomer(t));
    const id = await walletId(customer, 'BTC');
    await applied(setBalance(id, { newBalance: '3', reason: 'Sock puppet' }));
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '3', held: '0' });

    const withdrawal = await requestWithdrawal(t, customer, {
      assetId: 'BTC',
      amount: '0.2',
      address: GOOD_ADDRESS.BTC,
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(200);
    const withdrawalId = withdrawal.json().transaction.id;
    for (const who of [admin, approver]) {
      const res = await withoutChange(t, () =>
        call(t, {
          method: 'POST',
          url: `/api/admin/withdrawals/${withdrawalId}/approve`,
          cookie: who.cookie,
          body: { stepUp: stepUpFor(who) },
        }),
      );
      expect([res.statusCode, errorOf(res).message]).toEqual([403, STAFF_MSG.fundedCustomer]);
    }
  });
});

describe('editing a wallet address', () => {
  it('proposes an address valid for the wallet\u2019s network and sets it on approval, audited', async () => {
    const customer = await account();
    const id = await walletId(customer, 'ETH');
    const proposed = await setWalletAddress(id, { address: `  ${ETH_ADDRESS}  ` });
    expect(proposed.json().pending).toMatchObject({
      before: { walletId: id, assetId: 'ETH', address: null },
      after: { walletId: id, assetId: 'ETH', address: ETH_ADDRESS },
    });
    const changeId = pendingId(proposed);
    const audit = await lastAuditId();
    expect((await approve(changeId)).statusCode).toBe(200);
    expect(await walletAddress(id)).toBe(ETH_ADDRESS);
    expect((await walletsOf(customer)).find((w) => w.id === id)).toMatchObject({
      address: ETH_ADDRESS,
    });
    expect((await auditSince(audit)).filter((r) => r.target_id === changeId)).toEqual([
      expect.objectContaining({
        action: 'wallet.address.update',
        actor_id: approver.userId,
        target_user_id: customer.userId,
        before: { walletId: id, assetId: 'ETH', address: null },
        after: expect.objectContaining({ address: ETH_ADDRESS, proposedBy: admin.userId }),
      }),
    ]);
    const mail = mailsWithSubject(customer.email, 'The address of your ETH wallet was changed');
    expect(mail).toHaveLength(1);
    expect(mail[0]).not.toContain(ETH_ADDRESS);
  });

  it('refuses an empty address, one of another network or the same one, changing nothing', async () => {
    const customer = await account();
    const id = await walletId(customer, 'BTC');
    const empty = await withoutChange(t, () => setWalletAddress(id, { address: '   ' }));
    expect([empty.statusCode, errorOf(empty).message]).toEqual([400, 'Address cannot be empty']);
    const wrong = await withoutChange(t, () => setWalletAddress(id, { address: ETH_ADDRESS }));
    expect([wrong.statusCode, errorOf(wrong).message]).toEqual([
      400,
      'Invalid Bitcoin address format',
    ]);
    const noStepUp = await withoutChange(t, () =>
      call(t, {
        method: 'PATCH',
        url: `/api/admin/wallets/${id}/address`,
        cookie: admin.cookie,
        body: { address: BTC_ADDRESSES[0] },
      }),
    );
    expect(noStepUp.statusCode).toBe(400);
    await applied(setWalletAddress(id, { address: BTC_ADDRESSES[0] }));
    const same = await withoutChange(t, () => setWalletAddress(id, { address: BTC_ADDRESSES[0] }));
    expect([same.statusCode, errorOf(same).message]).toEqual([
      400,
      ADMIN_WALLET_MSG.walletAddressUnchanged,
    ]);
  });

  it('refuses on approval (409) when the address was changed since the proposal', async () => {
    const customer = await account();
    const id = await walletId(customer, 'BTC');
    const first = pendingId(await setWalletAddress(id, { address: BTC_ADDRESSES[1] }));
    // Changed behind the proposal's back (as a direct database edit or another change would).
    await t.services.pool.query('UPDATE user_wallets SET wallet_address = $2 WHERE id = $1', [
      id,
      BTC_ADDRESSES[2],
    ]);
    const res = await withoutChange(t, () => approve(first));
    expect([res.statusCode, errorOf(res).message]).toEqual([
      409,
      ADMIN_WALLET_MSG.walletAddressChangedSinceProposal,
    ]);
    expect(await walletAddress(id)).toBe(BTC_ADDRESSES[2]);
  });
});

describe('deposit addresses', () => {
  it('adds an address on approval; the customer then sees it on the deposit page, audited', async () => {
    const customer = await verifiedCustomer(t);
    const address = newBitcoinAddress();
    const proposed = await addAddress({
      userId: customer.userId,
      assetSymbol: 'BTC',
      network: 'bitcoin',
      address,
    });
    expect(proposed.json().pending).toMatchObject({
      before: null,
      after: {
        userId: customer.userId,
        assetSymbol: 'BTC',
        network: 'bitcoin',
        address,
        isActive: true,
      },
    });
    expect(await customerSees(customer)).toEqual([]);
    const changeId = pendingId(proposed);
    const audit = await lastAuditId();
    const res = await approve(changeId);
    expect(res.statusCode).toBe(200);
    expect(await customerSees(customer)).toEqual([address]);

    const mine = await call(t, {
      url: `/api/admin/users/${customer.userId}/deposit-addresses`,
      cookie: admin.cookie,
    });
    const created = mine.json().addresses[0];
    expect(created).toMatchObject({
      userId: customer.userId,
      assetSymbol: 'BTC',
      network: 'bitcoin',
      address,
      isActive: true,
      user: { id: customer.userId, email: customer.email },
    });
    const all = await call(t, { url: '/api/admin/deposit-addresses', cookie: admin.cookie });
    expect(all.json().addresses[0]).toMatchObject({ id: created.id });

    expect((await auditSince(audit)).filter((r) => r.target_id === changeId)).toEqual([
      expect.objectContaining({
        action: 'deposit_address.create',
        actor_id: approver.userId,
        target_user_id: customer.userId,
        before: null,
        after: expect.objectContaining({
          address,
          network: 'bitcoin',
          assetSymbol: 'BTC',
          depositAddressId: created.id,
          fulfilledRequest: false,
          proposedBy: admin.userId,
        }),
      }),
    ]);
    // The mail names the change, never the address: the deposit page is where it is copied.
    const mail = mailsWithSubject(
      customer.email,
      'A BTC (Bitcoin Network) deposit address was added to your account',
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]).not.toContain(address);
    expect(mail[0]).toContain(`${t.origin}/dashboard/deposit`);
  });

  it('refuses missing fields, unknown assets and networks, addresses not of the network, no step-up', async () => {
    const customer = await account();
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
      const res = await withoutChange(t, () => addAddress(body));
      expect([body, res.statusCode, errorOf(res).message]).toEqual([body, 400, message]);
    }
    const noStepUp = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/admin/deposit-addresses',
        cookie: admin.cookie,
        body: good,
      }),
    );
    expect(noStepUp.statusCode).toBe(400);
    const unknownUser = await withoutChange(t, () =>
      addAddress({ ...good, userId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(unknownUser.statusCode).toBe(404);
    await applied(addAddress(good));
    expect((await addressRows(customer.userId)).map((r) => r.address)).toEqual([SOL_ADDRESS]);
  });

  it('gives an address to one customer only: refused when proposed, and when approved after another took it', async () => {
    const first = await account();
    const second = await account();
    const third = await account();
    const body = { assetSymbol: 'ETH', network: 'ethereum', address: ETH_ADDRESS };
    // Two proposals of one address for two customers: both may wait...
    const forSecond = pendingId(
      await addAddress({
        ...body,
        address: ETH_ADDRESS.toUpperCase().replace('0X', '0x'),
        userId: second.userId,
      }),
    );
    await applied(addAddress({ ...body, userId: first.userId }));
    // ...but once one applied, the other is refused, and so is a new proposal.
    const late = await withoutChange(t, () => approve(forSecond));
    expect([late.statusCode, errorOf(late).message]).toEqual([409, ADMIN_WALLET_MSG.addressTaken]);
    for (const address of [ETH_ADDRESS, ETH_ADDRESS.toUpperCase().replace('0X', '0x')]) {
      const res = await withoutChange(t, () =>
        addAddress({ ...body, address, userId: third.userId }),
      );
      expect([res.statusCode, errorOf(res).message]).toEqual([409, ADMIN_WALLET_MSG.addressTaken]);
    }
    expect(await addressRows(second.userId)).toEqual([]);
    expect(await addressRows(third.userId)).toEqual([]);
  });

  it('edits asset, network, address and status; an inactive address is not shown', async () => {
    const customer = await verifiedCustomer(t);
    const id = await insertAddress(customer.userId, {
      assetSymbol: 'BTC',
      network: 'bitcoin',
      address: BTC_ADDRESSES[1],
    });

    const moved = await editAddress(id, { address: BTC_ADDRESSES[2] });
    expect(moved.json().pending).toMatchObject({
      before: { address: BTC_ADDRESSES[1], network: 'bitcoin', isActive: true },
      after: { address: BTC_ADDRESSES[2], network: 'bitcoin', isActive: true },
    });
    await applied(Promise.resolve(moved));
    expect(await customerSees(customer)).toEqual([BTC_ADDRESSES[2]]);

    // The address must fit the network it ends up on.
    const mismatch = await withoutChange(t, () => editAddress(id, { network: 'ethereum' }));
    expect([mismatch.statusCode, errorOf(mismatch).message]).toEqual([
      400,
      'Invalid Ethereum address format',
    ]);
    const empty = await withoutChange(t, () => editAddress(id, { address: '' }));
    expect([empty.statusCode, errorOf(empty).message]).toEqual([
      400,
      ADMIN_WALLET_MSG.requiredFields,
    ]);
    const unchanged = await withoutChange(t, () => editAddress(id, { isActive: true }));
    expect([unchanged.statusCode, errorOf(unchanged).message]).toEqual([
      400,
      ADMIN_WALLET_MSG.addressUnchanged,
    ]);

    await applied(
      editAddress(id, {
        assetSymbol: 'USDT',
        network: 'trc20',
        address: GOOD_ADDRESS['USDT-TRC20'],
      }),
    );
    expect(await customerSees(customer)).toEqual([GOOD_ADDRESS['USDT-TRC20']]);

    const offId = await applied(editAddress(id, { isActive: false }));
    expect(await customerSees(customer)).toEqual([]);

    const { rows } = await t.services.pool.query(
      'SELECT before, after FROM audit_log WHERE action = $1 AND target_id = $2',
      ['deposit_address.update', offId],
    );
    expect(rows).toEqual([
      {
        before: expect.objectContaining({ isActive: true, network: 'trc20' }),
        after: expect.objectContaining({ isActive: false, network: 'trc20' }),
      },
    ]);
  });

  it('refuses on approval (409) an edit or deletion of an address changed since the proposal', async () => {
    const customer = await account();
    const id = await insertAddress(customer.userId, {
      assetSymbol: 'ETH',
      network: 'ethereum',
      address: newEthereumAddress(),
    });
    const del = pendingId(await deleteAddress(id));
    const off = pendingId(await editAddress(id, { isActive: false }));
    // A newer edit of the same address replaces the pending one, and applies.
    await applied(editAddress(id, { address: newEthereumAddress() }, treasurer));
    expect(await changeRow(off)).toMatchObject({ status: 'replaced' });
    const replaced = await withoutChange(t, () => approve(off));
    expect([replaced.statusCode, errorOf(replaced).message]).toEqual([
      409,
      STAFF_MSG.changeDecided,
    ]);
    // The deletion was proposed of the address as it was: its approver was shown another.
    const stale = await withoutChange(t, () => approve(del));
    expect([stale.statusCode, errorOf(stale).message]).toEqual([
      409,
      ADMIN_WALLET_MSG.addressChangedSinceProposal,
    ]);
    // So is an edit whose address was changed behind its back.
    const on = pendingId(await editAddress(id, { isActive: false }));
    await t.services.pool.query('UPDATE deposit_addresses SET is_active = false WHERE id = $1', [
      id,
    ]);
    const moved = await withoutChange(t, () => approve(on));
    expect([moved.statusCode, errorOf(moved).message]).toEqual([
      409,
      ADMIN_WALLET_MSG.addressChangedSinceProposal,
    ]);
  });

  it('refuses to move an address onto one another customer has', async () => {
    const first = await account();
    const second = await account();
    const taken = '0x52908400098527886E0F7030069857D2E4169EE7';
    await insertAddress(first.userId, { assetSymbol: 'BNB', network: 'bep20', address: taken });
    const mine = await insertAddress(second.userId, {
      assetSymbol: 'BNB',
      network: 'bep20',
      address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    });
    const res = await withoutChange(t, () => editAddress(mine, { address: taken }));
    expect([res.statusCode, errorOf(res).message]).toEqual([409, ADMIN_WALLET_MSG.addressTaken]);
  });

  it('finds addresses by customer e-mail, address or asset, newest first', async () => {
    const customer = await account();
    const a = await insertAddress(customer.userId, {
      assetSymbol: 'XRP',
      network: 'ethereum',
      address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    });
    const b = await insertAddress(customer.userId, {
      assetSymbol: 'DOGE',
      network: 'polygon',
      address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    });
    const search = async (q: string) => {
      const res = await call(t, {
        url: `/api/admin/deposit-addresses?q=${encodeURIComponent(q)}`,
        cookie: admin.cookie,
      });
      expect(res.statusCode).toBe(200);
      return res.json().addresses.map((x: { id: string }) => x.id);
    };
    expect(await search(customer.email.toUpperCase())).toEqual([b, a]);
    expect(await search('dbf03b407c')).toEqual([b]);
    expect(await search('xrp')).toContain(a);
    expect(await search('%')).toEqual([]);
  });

  it('deletes an address on approval, audited with what it was; an unknown one is 404', async () => {
    const customer = await account();
    const address = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const id = await insertAddress(customer.userId, {
      assetSymbol: 'ADA',
      network: 'ethereum',
      address,
    });
    const changeId = await applied(deleteAddress(id));
    expect(await addressRows(customer.userId)).toEqual([]);
    const { rows } = await t.services.pool.query(
      'SELECT actor_id, target_user_id, before, after FROM audit_log WHERE action = $1 AND target_id = $2',
      ['deposit_address.delete', changeId],
    );
    expect(rows).toEqual([
      {
        actor_id: approver.userId,
        target_user_id: customer.userId,
        before: expect.objectContaining({ assetSymbol: 'ADA', address }),
        after: { proposedBy: admin.userId },
      },
    ]);
    const again = await withoutChange(t, () => deleteAddress(id));
    expect([again.statusCode, errorOf(again).message]).toEqual([
      404,
      ADMIN_WALLET_MSG.depositAddressNotFound,
    ]);
  });

  it('keeps the audit chain intact after all of the above', async () => {
    expect(await t.services.audit.verify(t.services.pool)).toMatchObject({ ok: true });
  });
});
