import { randomBytes } from 'node:crypto';
import { DEPOSIT_REQUEST_MSG, MONEY_MSG } from '@coffer/shared';
import { bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  call,
  createTestApp,
  errorOf,
  linkFromMail,
  mailsTo,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { setSetting, spareStepUps, stepUpFor } from '@server-test/money-helpers';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
/** Proposes the address changes; `approver` applies them (two people). */
let admin: SignedInUser;
let approver: SignedInUser;
beforeAll(async () => {
  // No chain configured: every address is one staff enter, so every asset can be asked for.
  t = await createTestApp();
  admin = await spareStepUps(t, await verifiedAdmin(t));
  approver = await spareStepUps(t, await verifiedAdmin(t));
});
afterAll(async () => {
  await t.close();
});

/** A Bitcoin address (P2WPKH, bc1q…) nobody has been given yet. */
const newBitcoinAddress = () => bech32.encode('bc', [0, ...bech32.toWords(randomBytes(20))]);
/** An Ethereum address in lower case (no checksum to get wrong) nobody has been given yet. */
const newEthereumAddress = () => `0x${randomBytes(20).toString('hex')}`;

const ask = (user: SignedInUser, assetId: unknown) =>
  call(t, {
    method: 'POST',
    url: '/api/deposit-address-requests',
    cookie: user.cookie,
    body: { assetId },
  });

async function depositPage(user: SignedInUser) {
  const res = await call(t, { url: '/api/deposit-addresses', cookie: user.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function openRequests() {
  const res = await call(t, { url: '/api/admin/deposit-address-requests', cookie: admin.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().requests as {
    id: string;
    assetId: string;
    network: string;
    requestedAt: string;
    user: { id: string; email: string };
  }[];
}

/** Staff add the customer an Ethereum address nobody has yet. */
async function addEthereumAddress(userId: string) {
  const added = await addAddress({
    userId,
    assetSymbol: 'ETH',
    network: 'ethereum',
    address: newEthereumAddress(),
  });
  expect(added.statusCode, added.body).toBe(200);
  return { id: added.id };
}

/**
 * `approver` approves what `admin` proposed (answered 202): the approval's answer, or the
 * proposal's when it was refused.
 */
async function approved(proposal: Promise<LightMyRequestResponse>) {
  const proposed = await proposal;
  if (proposed.statusCode !== 202) return proposed;
  return call(t, {
    method: 'POST',
    url: `/api/admin/changes/${proposed.json().pending.id}/approve`,
    cookie: approver.cookie,
    body: { stepUp: stepUpFor(approver) },
  });
}

function deleteAddress(id: string) {
  return approved(
    call(t, {
      method: 'DELETE',
      url: `/api/admin/deposit-addresses/${id}`,
      cookie: admin.cookie,
      body: { stepUp: stepUpFor(admin) },
    }),
  );
}

function editAddress(id: string, body: Record<string, unknown>) {
  return approved(
    call(t, {
      method: 'PATCH',
      url: `/api/admin/deposit-addresses/${id}`,
      cookie: admin.cookie,
      body: { ...body, stepUp: stepUpFor(admin) },
    }),
  );
}

/** Staff add an address (proposed, then approved): the answer and the address's id. */
async function addAddress(body: Record<string, unknown>) {
  const res = await approved(
    call(t, {
      method: 'POST',
      url: '/api/admin/deposit-addresses',
      cookie: admin.cookie,
      body: { ...body, stepUp: stepUpFor(admin) },
    }),
  );
  const { rows } = await t.services.pool.query<{ id: string }>(
    'SELECT id FROM deposit_addresses WHERE address = $1',
    [body.address],
  );
  return Object.assign(res, { id: rows[0]?.id ?? '' });
}

/** Another customer's account, made directly (nobody signs in as them): only their id is used. */
async function otherAccount(): Promise<{ userId: string }> {
  const email = `other-${randomBytes(6).toString('hex')}@example.com`;
  const made = await t.services.users.create({ email, passwordHash: 'not a hash', verified: true });
  if (!made) throw new Error(`${email} is taken`);
  return { userId: made.id };
}

async function requestRows(userId: string) {
  const { rows } = await t.services.pool.query<{
    id: string;
    asset_id: string;
    fulfilled_at: Date | null;
    fulfilled_by: string | null;
    deposit_address_id: string | null;
  }>(
    `SELECT id, asset_id, fulfilled_at, fulfilled_by, deposit_address_id
       FROM deposit_address_requests WHERE user_id = $1 ORDER BY requested_at, id`,
    [userId],
  );
  return rows;
}

async function auditRows(targetId: string) {
  const { rows } = await t.services.pool.query<{
    actor_id: string;
    target_user_id: string;
    after: Record<string, unknown>;
  }>(
    `SELECT actor_id, target_user_id, after FROM audit_log
      WHERE action = 'deposit_address_request.fulfil' AND target_id = $1`,
    [targetId],
  );
  return rows;
}

describe('asking for a deposit address', () => {
  it('offers every asset on a chain Coffer does not watch, until the customer has an address', async () => {
    const user = await verifiedCustomer(t);
    const page = await depositPage(user);
    expect(page.addresses).toEqual([]);
    expect(page.requestable).toEqual([
      { assetId: 'BTC', network: 'bitcoin', request: null },
      { assetId: 'ETH', network: 'ethereum', request: null },
      { assetId: 'USDT-ERC20', network: 'erc20', request: null },
      { assetId: 'USDT-TRC20', network: 'trc20', request: null },
    ]);
  });

  it('stores one request; asking again answers with it, and the page says it waits', async () => {
    const user = await verifiedCustomer(t);
    const first = await ask(user, 'BTC');
    expect(first.statusCode, first.body).toBe(200);
    const request = first.json().request;
    expect(request).toMatchObject({ assetId: 'BTC', network: 'bitcoin' });
    expect(Date.now() - Date.parse(request.requestedAt)).toBeLessThan(60_000);

    const again = await withoutChange(t, () => ask(user, 'BTC'));
    expect(again.statusCode).toBe(200);
    expect(again.json().request).toEqual(request);
    expect(await requestRows(user.userId)).toHaveLength(1);

    const page = await depositPage(user);
    expect(page.requestable.find((r: { assetId: string }) => r.assetId === 'BTC')).toEqual({
      assetId: 'BTC',
      network: 'bitcoin',
      request,
    });
    expect(page.requestable.filter((r: { request: unknown }) => r.request !== null)).toHaveLength(
      1,
    );
  });

  it('stores one request however many asks arrive at once', async () => {
    const user = await verifiedCustomer(t);
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask(user, 'USDT-TRC20')));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const ids = new Set(answers.map((r) => r.json().request.id));
    expect(ids.size).toBe(1);
    expect(await requestRows(user.userId)).toEqual([
      expect.objectContaining({ asset_id: 'USDT-TRC20', fulfilled_at: null }),
    ]);
  });

  it('refuses an asset that is not a customer wallet, and changes nothing', async () => {
    const user = await verifiedCustomer(t);
    for (const assetId of ['USDC', 'DOGE', '', null, 42]) {
      const res = await withoutChange(t, () => ask(user, assetId));
      expect([assetId, res.statusCode]).toEqual([assetId, 400]);
      expect(errorOf(res).error).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses an asset the customer already has an address for', async () => {
    const user = await verifiedCustomer(t);
    await addEthereumAddress(user.userId);
    // The Ethereum address takes ETH only: USDT-ERC20 is still asked for separately.
    const page = await depositPage(user);
    expect(page.requestable.map((r: { assetId: string }) => r.assetId)).toEqual([
      'BTC',
      'USDT-ERC20',
      'USDT-TRC20',
    ]);
    const res = await withoutChange(t, () => ask(user, 'ETH'));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(DEPOSIT_REQUEST_MSG.haveAddress('ETH'));
  });

  it('is refused while deposits are paused, and without a session', async () => {
    const user = await verifiedCustomer(t);
    await setSetting(t, 'deposits_enabled', 'false');
    try {
      const paused = await withoutChange(t, () => ask(user, 'BTC'));
      expect(paused.statusCode).toBe(403);
      expect(errorOf(paused)).toMatchObject({
        error: 'SERVICE_DISABLED',
        message: MONEY_MSG.depositsPaused,
      });
      expect((await depositPage(user)).requestable).toEqual([]);
    } finally {
      await setSetting(t, 'deposits_enabled', 'true');
    }
    const anonymous = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/deposit-address-requests', body: { assetId: 'BTC' } }),
    );
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("staff's open requests", () => {
  it('lists every open request with its customer, oldest first; customers may not look', async () => {
    const older = await verifiedCustomer(t);
    const newer = await verifiedCustomer(t);
    const a = (await ask(older, 'ETH')).json().request;
    const b = (await ask(newer, 'BTC')).json().request;
    const c = (await ask(older, 'USDT-ERC20')).json().request;
    const mine = (await openRequests()).filter((r) => [a.id, b.id, c.id].includes(r.id));
    expect(mine.map((r) => [r.id, r.user.email, r.assetId])).toEqual([
      [a.id, older.email, 'ETH'],
      [b.id, newer.email, 'BTC'],
      [c.id, older.email, 'USDT-ERC20'],
    ]);
    expect(mine[0]).toMatchObject({ network: 'ethereum', user: { id: older.userId } });

    const asCustomer = await call(t, {
      url: '/api/admin/deposit-address-requests',
      cookie: older.cookie,
    });
    expect(asCustomer.statusCode).toBe(403);
    expect((await call(t, { url: '/api/admin/deposit-address-requests' })).statusCode).toBe(401);
  });
});

describe('fulfilling a request', () => {
  it('approving the added address fulfils it in one go: the customer sees it, is mailed once, and it is audited', async () => {
    const user = await verifiedCustomer(t);
    const request = (await ask(user, 'BTC')).json().request;
    const address = newBitcoinAddress();
    const mailsBefore = mailsTo(t, user.email).length;
    const added = await addAddress({
      userId: user.userId,
      assetSymbol: 'BTC',
      network: 'bitcoin',
      address,
    });
    expect(added.statusCode, added.body).toBe(200);
    const addressId = added.id;

    // Fulfilled by the approver, whose approval added the address.
    expect(await requestRows(user.userId)).toEqual([
      expect.objectContaining({
        id: request.id,
        fulfilled_at: expect.any(Date),
        fulfilled_by: approver.userId,
        deposit_address_id: addressId,
      }),
    ]);
    const page = await depositPage(user);
    expect(page.addresses.map((a: { address: string }) => a.address)).toEqual([address]);
    expect(page.requestable.map((r: { assetId: string }) => r.assetId)).not.toContain('BTC');
    expect((await openRequests()).map((r) => r.id)).not.toContain(request.id);

    // The "ready" mail is the one mail of the change: no "address added" beside it.
    expect(mailsTo(t, user.email)).toHaveLength(mailsBefore + 1);
    const mails = mailsTo(t, user.email).filter((m) =>
      m.includes('Your BTC deposit address is ready'),
    );
    expect(mails).toHaveLength(1);
    const mail = mails[0] ?? '';
    expect(mail).toContain('Subject: Your BTC deposit address is ready');
    expect(linkFromMail(mail, t.origin)).toBe(`${t.origin}/dashboard/deposit`);
    expect(mail).not.toContain(address);

    const audit = await auditRows(request.id);
    expect(audit).toEqual([
      {
        actor_id: approver.userId,
        target_user_id: user.userId,
        after: {
          assetId: 'BTC',
          network: 'bitcoin',
          requestedAt: request.requestedAt,
          depositAddressId: addressId,
        },
      },
    ]);

    // With the address there, a new ask is refused.
    const again = await withoutChange(t, () => ask(user, 'BTC'));
    expect(again.statusCode).toBe(409);
  });

  it('names the token network in the mail', async () => {
    const user = await verifiedCustomer(t);
    await ask(user, 'USDT-ERC20');
    const added = await addAddress({
      userId: user.userId,
      assetSymbol: 'USDT',
      network: 'erc20',
      address: newEthereumAddress(),
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(mailsTo(t, user.email).at(-1)).toContain(
      'Subject: Your USDT (ERC-20) deposit address is ready',
    );
  });

  it("leaves it open for another asset's, another customer's or an inactive address; switching that one on fulfils it", async () => {
    const user = await verifiedCustomer(t);
    const other = await otherAccount();
    const request = (await ask(user, 'ETH')).json().request;
    const ready = () =>
      mailsTo(t, user.email).filter((m) => m.includes('deposit address is ready')).length;
    for (const body of [
      { userId: user.userId, assetSymbol: 'USDT', network: 'erc20' },
      { userId: other.userId, assetSymbol: 'ETH', network: 'ethereum' },
    ]) {
      const res = await addAddress({ ...body, address: newEthereumAddress() });
      expect(res.statusCode, res.body).toBe(200);
    }
    const inactive = await addAddress({
      userId: user.userId,
      assetSymbol: 'ETH',
      network: 'ethereum',
      address: newEthereumAddress(),
      isActive: false,
    });
    expect(inactive.statusCode, inactive.body).toBe(200);
    expect((await requestRows(user.userId))[0]?.fulfilled_at).toBeNull();
    // The customer is told of each address added (the USDT one, the inactive ETH one), but
    // not that one is ready.
    expect(ready()).toBe(0);
    expect(await auditRows(request.id)).toEqual([]);

    const switched = await editAddress(inactive.id, { isActive: true });
    expect(switched.statusCode, switched.body).toBe(200);
    expect((await requestRows(user.userId))[0]).toMatchObject({
      fulfilled_by: approver.userId,
      deposit_address_id: inactive.id,
    });
    expect(ready()).toBe(1);
    expect(mailsTo(t, user.email).at(-1)).toContain('Your ETH deposit address is ready');
    expect(await auditRows(request.id)).toHaveLength(1);
  });

  it('stays open, unmailed, when the address cannot be added', async () => {
    const user = await verifiedCustomer(t);
    const taken = await otherAccount();
    const address = newBitcoinAddress();
    expect(
      (await addAddress({ userId: taken.userId, assetSymbol: 'BTC', network: 'bitcoin', address }))
        .statusCode,
    ).toBe(200);
    await ask(user, 'BTC');
    const res = await withoutChange(t, () =>
      addAddress({ userId: user.userId, assetSymbol: 'BTC', network: 'bitcoin', address }),
    );
    expect(res.statusCode).toBe(409);
    expect((await requestRows(user.userId))[0]?.fulfilled_at).toBeNull();
  });

  it('can be asked for again once staff delete the address', async () => {
    const user = await verifiedCustomer(t);
    const first = (await ask(user, 'BTC')).json().request;
    const added = await addAddress({
      userId: user.userId,
      assetSymbol: 'BTC',
      network: 'bitcoin',
      address: newBitcoinAddress(),
    });
    const deleted = await deleteAddress(added.id);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const second = await ask(user, 'BTC');
    expect(second.statusCode).toBe(200);
    expect(second.json().request.id).not.toBe(first.id);
    // The fulfilled one is kept, its address gone.
    expect(await requestRows(user.userId)).toEqual([
      expect.objectContaining({ id: first.id, deposit_address_id: null }),
      expect.objectContaining({ fulfilled_at: null }),
    ]);
  });

  it("announces the request, and staff's adding and deleting the address, to live screens", async () => {
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    const heard: unknown[] = [];
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload ?? 'null')));
    await listener.query('LISTEN coffer_events');
    const user = await verifiedCustomer(t);
    const changed = { type: 'addresses.changed', userId: user.userId };
    const announced = () => heard.filter((e) => JSON.stringify(e) === JSON.stringify(changed));

    expect((await ask(user, 'ETH')).statusCode).toBe(200);
    await expect.poll(() => announced().length).toBe(1);
    // Asking again changes nothing, and announces nothing.
    expect((await ask(user, 'ETH')).statusCode).toBe(200);
    const added = await addEthereumAddress(user.userId);
    await expect.poll(() => announced().length).toBe(2);
    const deleted = await deleteAddress(added.id);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expect.poll(() => announced().length).toBe(3);
    await listener.end();
  });
});

// On a configured chain the address is derived for the customer: nothing to ask staff for.
describe('on a watched chain', () => {
  const operator = HDKey.fromMasterSeed(
    mnemonicToSeedSync(
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    ),
  );
  let watched: TestApp;
  beforeAll(async () => {
    watched = await createTestApp({
      BTC_RPC_URL: 'http://user:pass@127.0.0.1:1',
      BTC_XPUB: operator.derive("m/84'/1'/0'").publicExtendedKey,
      BTC_NETWORK: 'regtest',
    });
  });
  afterAll(async () => {
    await watched?.close();
  });

  it('refuses a request for its asset, and offers only the unwatched ones', async () => {
    const user = await verifiedCustomer(watched);
    const page = (
      await call(watched, { url: '/api/deposit-addresses', cookie: user.cookie })
    ).json();
    expect(page.addresses.map((a: { assetId: string }) => a.assetId)).toEqual(['BTC']);
    expect(page.requestable.map((r: { assetId: string }) => r.assetId)).toEqual([
      'ETH',
      'USDT-ERC20',
      'USDT-TRC20',
    ]);
    const res = await withoutChange(watched, () =>
      call(watched, {
        method: 'POST',
        url: '/api/deposit-address-requests',
        cookie: user.cookie,
        body: { assetId: 'BTC' },
      }),
    );
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(DEPOSIT_REQUEST_MSG.watched('BTC'));
  });
});
