import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatedRoute } from '../src/plugins/gate';
import {
  approveChange,
  call,
  codeFor,
  completeTwoFactor,
  createTestApp,
  errorOf,
  gateError,
  newSession,
  type SignedInUser,
  sessionCookie,
  signIn,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from './helpers';
import { fund, GOOD_ADDRESS } from './money-helpers';
import { SoftAuthenticator } from './soft-authenticator';

/**
 * product.md S2/S6: the server's gate stands in front of every route. The routes open to
 * anyone, and those open before the second factor, are listed here by hand: a new route
 * that skips the gate fails this test until someone adds it here on purpose.
 */
const PUBLIC = [
  'GET /*',
  // What crawlers and security researchers read first: nothing behind a session.
  'GET /.well-known/security.txt',
  'GET /api/health',
  // Probes for load balancers and orchestrators: they carry no session.
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/public/info',
  'GET /api/session',
  'GET /media/promo.mp4',
  // No session either: its own rule (loopback or METRICS_TOKEN) decides, see health.routes.ts.
  'GET /metrics',
  'GET /robots.txt',
  'GET /sitemap.xml',
  'POST /api/auth/resend-verification',
  'POST /api/auth/reset-password',
  'POST /api/auth/sign-in',
  'POST /api/auth/sign-up',
  'POST /api/auth/verify-email',
  // The "This wasn't me" link of a security-hold mail: it must work when locked out.
  'POST /api/security/freeze',
  // The link mailed after two admins lifted a freeze: the owner cannot sign in until it is used.
  'POST /api/security/set-password',
];
const SIGNED_IN = [
  'GET /api/2fa/status',
  'GET /api/passkeys/sign-in',
  'POST /api/2fa/enable',
  'POST /api/2fa/reset-with-phrase',
  'POST /api/2fa/setup',
  'POST /api/2fa/setup/cancel',
  'POST /api/2fa/verify',
  'POST /api/auth/sign-out',
  'POST /api/passkeys/assert/options',
  'POST /api/passkeys/sign-in',
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

const nameOf = (r: GatedRoute) => `${r.method} ${r.url}`;
const isMethod = (m: string): m is Method => METHODS.some((known) => known === m);

let t: TestApp;
let routes: GatedRoute[];
beforeAll(async () => {
  t = await createTestApp();
  const all = t.app.gatedRoutes();
  // Fastify adds a HEAD twin to every GET; it is checked against its GET below.
  routes = all.filter(
    (r) => !(r.method === 'HEAD' && all.some((g) => g.method === 'GET' && g.url === r.url)),
  );
});
afterAll(async () => {
  await t.close();
});

/** Calls a route with placeholder parameters and an empty JSON body: enough to meet the gate. */
function send(route: GatedRoute, cookie?: string): Promise<LightMyRequestResponse> {
  if (!isMethod(route.method)) throw new Error(`no test request for ${nameOf(route)}`);
  const url = route.url
    .replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000')
    .replace('*', 'anything');
  return call(t, {
    method: route.method,
    url,
    ...(cookie ? { cookie } : {}),
    ...(route.method === 'GET' ? {} : { body: {} }),
  });
}

/** Sends every route of a kind and lists those whose answer is not the expected one. */
async function mismatches(
  kinds: GatedRoute['access'][],
  cookie: () => Promise<string | undefined>,
  expected: string | null,
): Promise<string[]> {
  const out: string[] = [];
  for (const route of routes.filter((r) => kinds.includes(r.access))) {
    const res = await send(route, await cookie());
    const got = gateError(res);
    if (got !== expected)
      out.push(
        `${nameOf(route)}: expected ${expected ?? 'to pass'}, got ${res.statusCode} ${res.body}`,
      );
  }
  return out;
}

describe('the list of routes', () => {
  it('opens exactly the allow-listed routes to visitors and to sessions before 2FA', () => {
    const names = (access: GatedRoute['access']) =>
      routes
        .filter((r) => r.access === access)
        .map(nameOf)
        .sort();
    expect(names('public')).toEqual(PUBLIC);
    expect(names('signed-in')).toEqual(SIGNED_IN);
    // The list is the real one: it has customer and admin routes too.
    expect(names('customer')).toContain('GET /api/recovery-phrase');
    expect(names('admin')).toContain('GET /api/admin/overview');
  });

  it('makes every /api/admin route an admin route, and no other', () => {
    const misfiled = routes
      .filter((r) => r.url.startsWith('/api/admin/') !== (r.access === 'admin'))
      .map((r) => `${nameOf(r)} (${r.access})`);
    expect(misfiled).toEqual([]);
  });

  it('gives every HEAD twin the access of its GET', () => {
    const all = t.app.gatedRoutes();
    for (const head of all.filter((r) => r.method === 'HEAD')) {
      const get = all.find((r) => r.method === 'GET' && r.url === head.url);
      expect(get?.access, head.url).toBe(head.access);
    }
  });
});

describe('the gate on every route', () => {
  it('lets visitors reach the public routes', async () => {
    expect(await mismatches(['public'], async () => undefined, null)).toEqual([]);
  });

  it('answers 401 to visitors everywhere else', async () => {
    expect(
      await mismatches(
        ['signed-in', 'customer', 'admin'],
        async () => undefined,
        'UNAUTHENTICATED',
      ),
    ).toEqual([]);
  });

  it('lets a session that has not passed 2FA reach the signed-in routes, and nothing more', async () => {
    const user = await signUpAndSignIn(t);
    // A fresh session for each signed-in route: one of them signs out.
    expect(await mismatches(['signed-in'], () => newSession(t, user), null)).toEqual([]);
    expect(
      await mismatches(['customer', 'admin'], async () => user.cookie, 'TWO_FACTOR_REQUIRED'),
    ).toEqual([]);
    // One scrypt sign-in per signed-in route: slow on a busy machine, not a sign of trouble.
  }, 60_000);

  it('answers 403 TWO_FACTOR_REQUIRED to a new session of a user who has 2FA on', async () => {
    const cookie = await newSession(t, await verifiedCustomer(t));
    expect(
      await mismatches(['customer', 'admin'], async () => cookie, 'TWO_FACTOR_REQUIRED'),
    ).toEqual([]);
  });

  it('answers 403 FORBIDDEN to a verified customer on every admin route', async () => {
    const customer: SignedInUser = await verifiedCustomer(t);
    expect(await mismatches(['admin'], async () => customer.cookie, 'FORBIDDEN')).toEqual([]);
  });

  it('lets a verified admin through to every admin route, and an admin before 2FA nowhere', async () => {
    const admin = await verifiedAdmin(t);
    expect(await mismatches(['admin'], async () => admin.cookie, null)).toEqual([]);
    const cookie = await newSession(t, admin);
    expect(await mismatches(['admin'], async () => cookie, 'TWO_FACTOR_REQUIRED')).toEqual([]);
  });
});

/**
 * The "held admin" role: an admin inside a security hold, started as the app starts one (a
 * second admin reset their second factor), who then signed in and set up a new factor. Staff
 * are held to the customer's standard: every state-changing admin route refuses them with
 * SECURITY_HOLD and the hold's end, and changes nothing; every read still answers.
 */
describe('the held admin role: a verified admin inside a security hold', () => {
  let held: SignedInUser;

  beforeAll(async () => {
    const restorer = await verifiedAdmin(t);
    const approver = await verifiedAdmin(t);
    const admin = await verifiedAdmin(t);
    // A staff member's second factor is reset by two people: one proposes, another approves.
    const reset = await call(t, {
      method: 'POST',
      url: `/api/admin/users/${admin.userId}/two-factor/disable`,
      cookie: restorer.cookie,
      body: { reason: 'Lost phone, checked on a call', stepUp: { code: codeFor(restorer, 1) } },
    });
    expect(reset.statusCode, reset.body).toBe(202);
    const approved = await approveChange(t, approver, reset.json().pending.id);
    expect(approved.statusCode, approved.body).toBe(200);
    held = await completeTwoFactor(t, { ...admin, cookie: await newSession(t, admin) });
    const hold = await call(t, { url: '/api/security/hold', cookie: held.cookie });
    expect(hold.json()).toMatchObject({ onHold: true, frozen: false });
  }, 60_000);

  /** Keeps the held admin's session from sliding inside a comparison of every table. */
  const fresh = () =>
    t.services.pool.query('UPDATE sessions SET last_seen_at = now() WHERE user_id = $1', [
      held.userId,
    ]);

  it('answers 403 SECURITY_HOLD, with the end of the hold, on every state-changing admin route, changing nothing', async () => {
    const { rows } = await t.services.pool.query<{ until: Date }>(
      'SELECT security_hold_until AS until FROM user_profiles WHERE id = $1',
      [held.userId],
    );
    const until = rows[0]?.until.toISOString();
    const writes = routes.filter((r) => r.access === 'admin' && r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const route of writes) {
      await fresh();
      const res = await withoutChange(t, () => send(route, held.cookie));
      const body = res.json();
      if (
        res.statusCode !== 403 ||
        body.error !== 'SECURITY_HOLD' ||
        body.holdUntil !== until ||
        !String(body.message).includes('security hold until')
      )
        wrong.push(`${nameOf(route)}: ${res.statusCode} ${res.body}`);
    }
    console.log(
      `held admin: ${writes.length - wrong.length} of ${writes.length} state-changing admin routes refused with SECURITY_HOLD (of ${routes.length} routes)`,
    );
    expect(wrong).toEqual([]);
  }, 120_000);

  it('still reads: no admin read route refuses the held admin', async () => {
    const reads = routes.filter((r) => r.access === 'admin' && r.method === 'GET');
    const refused: string[] = [];
    for (const route of reads) {
      const res = await send(route, held.cookie);
      if (
        gateError(res) !== null ||
        (res.statusCode === 403 && res.json().error === 'SECURITY_HOLD')
      )
        refused.push(`${nameOf(route)}: ${res.statusCode} ${res.body}`);
    }
    console.log(
      `held admin: ${reads.length - refused.length} of ${reads.length} admin read routes answered`,
    );
    expect(refused).toEqual([]);
  });
});

/**
 * Issue 12's "hold" role: a verified customer inside a security hold (product.md S10). The
 * hold was started as the app starts one, by resetting the password with the recovery
 * phrase; the customer then signed in with the new password and passed 2FA. Before that,
 * they funded a wallet and added a passkey, so every refusal below is the hold's and not a
 * missing balance or passkey.
 */
describe('the hold role: a verified customer inside a security hold', () => {
  const NEW_PASSWORD = 'Held-But-Here-9';
  let held: SignedInUser;
  let passkeyId: string;
  let plain: SignedInUser;

  beforeAll(async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    passkeyId = await addPasskey(user);
    const reset = await call(t, {
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { recoveryPhrase: user.seedPhrase, newPassword: NEW_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const cookie = sessionCookie(await signIn(t, user.email, NEW_PASSWORD));
    const verified = await call(t, {
      method: 'POST',
      url: '/api/2fa/verify',
      cookie,
      body: { code: codeFor(user, 1) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    held = { ...user, password: NEW_PASSWORD, cookie: sessionCookie(verified) };
    const hold = await call(t, { url: '/api/security/hold', cookie: held.cookie });
    expect(hold.json()).toMatchObject({ onHold: true, frozen: false });
    // The same customer outside a hold: funded, with a passkey.
    plain = await verifiedCustomer(t);
    await fund(t, plain.userId, 'BTC', '1');
    await addPasskey(plain);
  });

  /** Adds a passkey on a software authenticator; its id. */
  async function addPasskey(user: SignedInUser): Promise<string> {
    const options = await call(t, {
      method: 'POST',
      url: '/api/passkeys/register/options',
      cookie: user.cookie,
    });
    const added = await call(t, {
      method: 'POST',
      url: '/api/passkeys/register',
      cookie: user.cookie,
      body: { name: 'Laptop', credential: new SoftAuthenticator().create(options.json().options) },
    });
    expect(added.statusCode, added.body).toBe(200);
    return added.json().passkey.id;
  }

  /** The routes of these kinds that answer 2xx to a cookie's placeholder request. */
  async function passing(kinds: GatedRoute['access'][], cookie: string): Promise<string[]> {
    const out: string[] = [];
    // Signing out would end the session the rest of the sweep needs; it is a signed-in
    // route like any other, checked above.
    const swept = routes.filter(
      (r) => kinds.includes(r.access) && nameOf(r) !== 'POST /api/auth/sign-out',
    );
    for (const route of swept) {
      const res = await send(route, cookie);
      if (res.statusCode >= 200 && res.statusCode < 300) out.push(nameOf(route));
    }
    return out;
  }

  it('is refused every admin route, like any customer', async () => {
    expect(await mismatches(['admin'], async () => held.cookie, 'FORBIDDEN')).toEqual([]);
  });

  it('gets no 2xx on any route that a customer outside a hold would not get', async () => {
    const kinds: GatedRoute['access'][] = ['signed-in', 'customer'];
    const open = new Set(await passing(kinds, plain.cookie));
    const heldPasses = await passing(kinds, held.cookie);
    // The sweep reaches the customer's routes: reads answer the held customer as usual.
    expect(heldPasses).toContain('GET /api/security/hold');
    expect(heldPasses.filter((name) => !open.has(name))).toEqual([]);
    // The sweep left the hold in place.
    const hold = await call(t, { url: '/api/security/hold', cookie: held.cookie });
    expect(hold.json()).toMatchObject({ onHold: true });
  });

  it('answers 403 SECURITY_HOLD on every route a hold stops, and changes nothing', async () => {
    const stepUp = { code: codeFor(held, 2) };
    const bank = { fullName: 'Jo Citizen', bsb: '062000', accountNumber: '12345678' };
    // A well-formed answer to a challenge the hold never hands out: the request is whole,
    // so only the hold can refuse it.
    const credential = new SoftAuthenticator().create({
      challenge: Buffer.from('never issued').toString('base64url'),
      rp: { id: 'localhost' },
    });
    const refused: Array<[string, string, unknown]> = [
      [
        'POST',
        '/api/withdrawals',
        { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC, stepUp },
      ],
      [
        'POST',
        '/api/bank-transfers',
        {
          accountName: 'Jo Citizen',
          accountNumber: '12345678',
          bsbNumber: '062000',
          amountAud: '50',
          assetId: 'BTC',
          stepUp,
        },
      ],
      ['PUT', '/api/bank-details', { ...bank, stepUp }],
      ['POST', '/api/2fa/disable', { code: codeFor(held, 2) }],
      ['POST', '/api/2fa/reset-with-phrase', { seedPhrase: held.seedPhrase }],
      ['POST', '/api/passkeys/register/options', undefined],
      ['POST', '/api/passkeys/register', { name: 'Phone', credential }],
      ['POST', `/api/passkeys/${passkeyId}/remove`, { code: codeFor(held, 2) }],
      [
        'POST',
        '/api/account/password',
        { currentPassword: held.password, newPassword: 'Someone-Else-Now-8', stepUp },
      ],
      ['POST', '/api/sessions/sign-out-others', undefined],
    ];
    const answers: string[] = [];
    for (const [method, url, body] of refused) {
      const res = await withoutChange(t, () =>
        call(t, {
          method: method === 'PUT' ? 'PUT' : 'POST',
          url,
          cookie: held.cookie,
          ...(body === undefined ? {} : { body }),
        }),
      );
      const error = res.statusCode === 403 ? errorOf(res).error : res.body;
      answers.push(`${method} ${url}: ${res.statusCode} ${error}`);
    }
    expect(answers).toEqual(refused.map(([m, u]) => `${m} ${u}: 403 SECURITY_HOLD`));
  });
});
