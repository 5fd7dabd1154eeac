import { randomUUID } from 'node:crypto';
import { REALTIME_CLOSE, type TRealtimeEvent } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import {
  call,
  createTestApp,
  newSession,
  type SignedInUser,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
} from '@server-test/helpers';
import {
  type Instance,
  openSocket,
  secondInstance,
  serve,
  subscribed,
} from '@server-test/realtime-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let a: Instance;
let b: Instance & { close(): Promise<void> };
let alice: SignedInUser;
let bob: SignedInUser;
let admin: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  a = await serve(t.app, t.services);
  b = await secondInstance(t);
  alice = await verifiedCustomer(t);
  bob = await verifiedCustomer(t);
  admin = await verifiedAdmin(t);
});
afterAll(async () => {
  await b.close();
  await t.services.listener.stop();
  await t.close();
});

const ledgerOf = (userId: string) => ({ type: 'ledger.changed', userId }) satisfies TRealtimeEvent;

describe('two server instances on one database', () => {
  it('deliver an event published on one to the sockets of the other', async () => {
    const aliceOnB = await subscribed(b.url, alice.cookie);
    const adminOnB = await subscribed(b.url, admin.cookie);
    await a.services.realtime.publish(a.services.pool, ledgerOf(alice.userId));
    expect(await aliceOnB.next((e) => e.type === 'ledger.changed')).toEqual(ledgerOf(alice.userId));
    expect(await adminOnB.next((e) => e.type === 'ledger.changed')).toEqual(ledgerOf(alice.userId));
    aliceOnB.close();
    adminOnB.close();
  });

  it("never give a customer's socket another customer's events", async () => {
    const bobOnA = await subscribed(a.url, bob.cookie);
    const bobOnB = await subscribed(b.url, bob.cookie);
    // One channel keeps the order: once Bob's own event is in, Alice's was already handled.
    await b.services.realtime.publish(b.services.pool, ledgerOf(alice.userId));
    await b.services.realtime.publish(b.services.pool, ledgerOf(bob.userId));
    for (const socket of [bobOnA, bobOnB]) {
      await socket.next((e) => e.type === 'ledger.changed' && e.userId === bob.userId);
      expect(socket.events).toEqual([ledgerOf(bob.userId)]);
      socket.close();
    }
  });

  it('deliver many events published at once, each to its own customer, past one payload', async () => {
    const bobOnB = await subscribed(b.url, bob.cookie);
    const adminOnB = await subscribed(b.url, admin.cookie);
    // 300 customers' events (a block moving many deposits' confirmations): more than one
    // NOTIFY payload holds, Bob's among them.
    const others = Array.from({ length: 299 }, () => ledgerOf(randomUUID()));
    const events = [...others.slice(0, 150), ledgerOf(bob.userId), ...others.slice(150)];
    await a.services.realtime.publishMany(a.services.pool, events);
    await adminOnB.next((e) => e.type === 'ledger.changed' && e.userId === others.at(-1)?.userId);
    expect(adminOnB.events).toEqual(events);
    await bobOnB.next((e) => e.type === 'ledger.changed' && e.userId === bob.userId);
    expect(bobOnB.events).toEqual([ledgerOf(bob.userId)]);
    bobOnB.close();
    adminOnB.close();
  });

  it('send an event written in a transaction only when it commits', async () => {
    const bobOnB = await subscribed(b.url, bob.cookie);
    const rolledBack = withTransaction(a.services.pool, async (client) => {
      await a.services.realtime.publish(client, {
        type: 'chat.room',
        roomId: '11111111-1111-4111-8111-111111111111',
        userId: bob.userId,
      });
      throw new Error('changed my mind');
    });
    await expect(rolledBack).rejects.toThrow('changed my mind');
    await withTransaction(a.services.pool, (client) =>
      a.services.realtime.publish(client, ledgerOf(bob.userId)),
    );
    await bobOnB.next((e) => e.type === 'ledger.changed');
    expect(bobOnB.events).toEqual([ledgerOf(bob.userId)]);
    bobOnB.close();
  });

  it("announce every ledger change to the customer's socket, so their screens refresh", async () => {
    const bobOnB = await subscribed(b.url, bob.cookie);
    await withTransaction(a.services.pool, (client) =>
      a.services.ledger.post(client, {
        userId: bob.userId,
        assetId: 'BTC',
        type: 'deposit',
        direction: 'credit',
        amount: 1000n,
        status: 'completed',
        createdBy: null,
      }),
    );
    expect(await bobOnB.next((e) => e.type === 'ledger.changed')).toEqual(ledgerOf(bob.userId));
    bobOnB.close();
    await bobOnB.closed;
  });

  it('know on either instance whether a customer has a socket open', async () => {
    expect(await a.services.realtime.isOnline(alice.userId)).toBe(false);
    const aliceOnB = await subscribed(b.url, alice.cookie);
    expect(await a.services.realtime.isOnline(alice.userId)).toBe(true);
    // Bob's sockets of the tests before are closed; letting go of presence follows a moment later.
    await expect.poll(() => a.services.realtime.isOnline(bob.userId)).toBe(false);
    aliceOnB.close();
    await aliceOnB.closed;
    // The instance that held the socket lets go of its presence once the socket is gone.
    await expect.poll(() => a.services.realtime.isOnline(alice.userId)).toBe(false);
  });
});

describe('the upgrade', () => {
  it('refuses a foreign Origin, no Origin, no session and a session before 2FA', async () => {
    await expect(
      openSocket(a.url, { cookie: alice.cookie, origin: 'https://evil.example' }),
    ).rejects.toThrow('refused: 403');
    await expect(openSocket(a.url, { cookie: alice.cookie, origin: null })).rejects.toThrow(
      'refused: 403',
    );
    await expect(openSocket(a.url, {})).rejects.toThrow('refused: 401');
    const unverified = await newSession(t, alice);
    await expect(openSocket(a.url, { cookie: unverified })).rejects.toThrow('refused: 403');
    const never = await signUpAndSignIn(t);
    await expect(openSocket(a.url, { cookie: never.cookie })).rejects.toThrow('refused: 403');
  });

  it('closes a socket that does not subscribe in time', async () => {
    b.services.realtime.timing.authTimeoutMs = 200;
    try {
      const ws = await openSocket(b.url, { cookie: alice.cookie });
      const code = await new Promise((resolve) => ws.once('close', resolve));
      expect(code).toBe(REALTIME_CLOSE.unauthorized);
    } finally {
      b.services.realtime.timing.authTimeoutMs = 5_000;
    }
  });

  it('closes the sockets of a signed-out session within a second, on every instance', async () => {
    const carol = await verifiedCustomer(t);
    // The periodic re-check stays at its 30 s: the database announces the ended session.
    const onA = await subscribed(a.url, carol.cookie);
    const onB = await subscribed(b.url, carol.cookie);
    const other = await subscribed(a.url, alice.cookie);
    const started = Date.now();
    const out = await call(t, { method: 'POST', url: '/api/auth/sign-out', cookie: carol.cookie });
    expect(out.statusCode).toBe(200);
    expect(await onA.closed).toBe(REALTIME_CLOSE.unauthorized);
    expect(await onB.closed).toBe(REALTIME_CLOSE.unauthorized);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Another customer's socket is not touched.
    await a.services.realtime.publish(a.services.pool, ledgerOf(alice.userId));
    expect(await other.next((e) => e.type === 'ledger.changed')).toEqual(ledgerOf(alice.userId));
    other.close();
  });

  it('closes the sockets of sessions revoked in the database, whatever revoked them', async () => {
    const dave = await verifiedCustomer(t);
    const socket = await subscribed(b.url, dave.cookie);
    await t.services.pool.query('DELETE FROM sessions WHERE user_id = $1', [dave.userId]);
    expect(await socket.closed).toBe(REALTIME_CLOSE.unauthorized);
  });

  it('closes a socket that sends something other than subscribe', async () => {
    const ws = await openSocket(a.url, { cookie: admin.cookie });
    ws.send('{"type":"give-me-everything"}');
    const code = await new Promise((resolve) => ws.once('close', resolve));
    expect(code).toBe(REALTIME_CLOSE.badMessage);
  });
});
