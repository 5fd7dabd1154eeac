import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GatedRoute } from '../src/plugins/gate';
import { CONTROL_CHARACTERS_MESSAGE, type GuardedRoute } from '../src/plugins/input-guard';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  signUpAndSignIn,
  storedFileKeys,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from './helpers';
import { realJpeg } from './image-fixtures';
import { fund, GOOD_ADDRESS, requestWithdrawal } from './money-helpers';
import { type FilePart, multipart } from './multipart';

/**
 * The input guard (plugins/input-guard.ts): a NUL byte, or any other control character
 * outside the multi-line fields a route names, is a 400 that names the field, on every
 * route, before any handler or query runs; and malformed ids, cursors and filters are 4xx,
 * never a 500.
 */

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
const isMethod = (m: string): m is Method => METHODS.some((known) => known === m);

const A_UUID = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
let customer: SignedInUser;
let admin: SignedInUser;
/** A session that has not passed 2FA: what the `signed-in` routes are for. */
let beforeTwoFactor: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  customer = await verifiedCustomer(t);
  admin = await verifiedAdmin(t);
  beforeTwoFactor = await signUpAndSignIn(t);
});
afterAll(async () => {
  await t.close();
});

/** The guard's answer for a field, as a client reads it. */
function refusedIn(field: string) {
  return {
    error: 'VALIDATION_FAILED',
    message: `${CONTROL_CHARACTERS_MESSAGE} (in ${field}).`,
  };
}

function cookieFor(access: GatedRoute['access']): string | undefined {
  if (access === 'public') return undefined;
  if (access === 'signed-in') return beforeTwoFactor.cookie;
  return access === 'admin' ? admin.cookie : customer.cookie;
}

/** A field the route's body schema really has (the first), or null when it declares none. */
function bodyFieldOf(schema: unknown): string | null {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape)[0] ?? null;
  if (schema instanceof z.ZodUnion) return bodyFieldOf(schema.options[0]);
  if (schema instanceof z.ZodPipe) return bodyFieldOf(schema.in);
  return null;
}

/** A path with every parameter filled in: `first` for the first one, a uuid for the rest. */
function fill(url: string, first: string): string {
  let n = 0;
  return url.replace(/:[^/]+|\*/g, () => (n++ === 0 ? first : A_UUID));
}

/** A route's parameters as the guard names them: the catch-all's is the address itself. */
const paramNames = (url: string) =>
  [...url.matchAll(/:([^/]+)|\*/g)].map((m) => (m[1] === undefined ? 'the address' : m[1]));

/** Every route once: the HEAD twin of a GET runs the same hooks and handler. */
function allRoutes(): Array<GatedRoute & { body: unknown }> {
  const guarded: GuardedRoute[] = t.app.guardedRoutes();
  const gated = t.app.gatedRoutes();
  return gated
    .filter(
      (r) => !(r.method === 'HEAD' && gated.some((g) => g.method === 'GET' && g.url === r.url)),
    )
    .map((r) => ({
      ...r,
      body: guarded.find((g) => g.method === r.method && g.url === r.url)?.body,
    }));
}

function send(
  method: Method,
  url: string,
  access: GatedRoute['access'],
  body?: unknown,
): Promise<LightMyRequestResponse> {
  const cookie = cookieFor(access);
  return call(t, { method, url, ...(cookie ? { cookie } : {}), ...(body ? { body } : {}) });
}

describe('a NUL byte on every route', () => {
  it('is refused in the query string, a path parameter and the JSON body, changing nothing', async () => {
    const routes = allRoutes();
    const failures: string[] = [];
    let covered = 0;
    let withParams = 0;
    let withBodies = 0;
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      if (!isMethod(route.method)) {
        failures.push(`${name}: no test request for this method`);
        continue;
      }
      const method = route.method;
      const expectRefused = (res: LightMyRequestResponse, field: string, where: string) => {
        const body = String(res.headers['content-type']).includes('json') ? res.json() : res.body;
        const ok =
          res.statusCode === 400 && JSON.stringify(body) === JSON.stringify(refusedIn(field));
        if (!ok) failures.push(`${name} (${where}): ${res.statusCode} ${res.body.slice(0, 200)}`);
        return ok;
      };
      const before = failures.length;
      await withoutChange(t, async () => {
        const url = fill(route.url, A_UUID).replace('*', 'anything');
        const bodyField = bodyFieldOf(route.body) ?? 'note';
        // The body a browser would send, so that the query is the only bad input.
        const plainBody = method === 'GET' ? undefined : { [bodyField]: 'plain' };
        expectRefused(
          await send(method, `${url}?q=a%00b`, route.access, plainBody),
          'q',
          'query string',
        );
        const params = paramNames(route.url);
        const [firstParam] = params;
        if (firstParam !== undefined) {
          withParams += 1;
          expectRefused(
            await send(method, fill(route.url, 'a%00b'), route.access, plainBody),
            firstParam,
            'path parameter',
          );
        }
        if (method !== 'GET') {
          withBodies += 1;
          expectRefused(
            await send(method, url, route.access, { [bodyField]: 'a\u0000b' }),
            bodyField,
            'JSON body',
          );
        }
      });
      if (failures.length === before) covered += 1;
    }
    console.log(
      `NUL guard: ${covered} routes covered of ${routes.length} ` +
        `(${withParams} with a path parameter, ${withBodies} with a JSON body)`,
    );
    expect(failures).toEqual([]);
    // Every route reads a query string, so every route has input the guard must cover.
    expect(covered).toBe(routes.length);
    // The walk is the real route table, not a handful: both trees and their parameters.
    expect(routes.length).toBeGreaterThan(60);
    expect(withParams).toBeGreaterThan(15);
  });
});

describe('multi-line fields', () => {
  /** A body with `value` at a field's path, `*` standing for any key. */
  function bodyAt(field: string, value: string): Record<string, unknown> {
    const keys = field.split('.').map((k) => (k === '*' ? 'any' : k));
    return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<
      string,
      unknown
    >;
  }

  it('let TAB, LF and CR through where a route names them, and nothing else below a space', async () => {
    const declared = allRoutes().flatMap((r) =>
      (
        t.app.guardedRoutes().find((g) => g.method === r.method && g.url === r.url)
          ?.multilineFields ?? []
      ).map((field) => ({ ...r, field })),
    );
    // The fields people type on several lines: chat text (JSON and multipart), reasons,
    // notes, the KYC address, recovery phrases, JSON settings.
    expect(declared.length).toBeGreaterThanOrEqual(12);
    const failures: string[] = [];
    for (const route of declared) {
      if (!isMethod(route.method)) continue;
      const url = fill(route.url, A_UUID);
      const method = route.method;
      const name = `${method} ${route.url} ${route.field}`;
      const lines = await withoutChange(t, () =>
        send(method, url, route.access, bodyAt(route.field, 'one\r\n\ttwo')),
      );
      if (errorOf(lines).message?.startsWith(CONTROL_CHARACTERS_MESSAGE))
        failures.push(`${name}: line breaks refused`);
      const bell = await withoutChange(t, () =>
        send(method, url, route.access, bodyAt(route.field, 'one\u0007')),
      );
      const field = route.field.replace('*', 'any');
      if (JSON.stringify(errorOf(bell)) !== JSON.stringify(refusedIn(field)))
        failures.push(`${name}: a bell got ${bell.statusCode} ${bell.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('control characters from the issue', () => {
  it('refuses %00 in the admin transaction search', async () => {
    const res = await withoutChange(t, () =>
      call(t, { url: '/api/admin/transactions?q=%00', cookie: admin.cookie }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual(refusedIn('q'));
  });

  it('refuses %00 in the admin user searches', async () => {
    for (const url of [
      '/api/admin/users?q=%00',
      '/api/admin/user-directory?q=%00',
      '/api/admin/deposit-addresses?q=%00',
      '/api/admin/audit?q=%00',
    ]) {
      const res = await withoutChange(t, () => call(t, { url, cookie: admin.cookie }));
      expect(res.statusCode, url).toBe(400);
      expect(errorOf(res)).toEqual(refusedIn('q'));
    }
  });

  it('refuses a withdrawal memo with a NUL or a line break, and takes a plain one', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const request = (memo: string) =>
      requestWithdrawal(t, user, {
        assetId: 'BTC',
        amount: '0.1',
        address: GOOD_ADDRESS.BTC,
        memo,
      });
    for (const memo of ['rent\u0000', 'line\nbreak', 'tab\there']) {
      const res = await withoutChange(t, () => request(memo));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual(refusedIn('memo'));
    }
    const plain = await request('rent');
    expect(plain.statusCode).toBe(200);
    expect(plain.json().transaction.memo).toBe('rent');
  });

  it('refuses chat text with a NUL or a bell, and keeps the lines of a multi-line message', async () => {
    const user = await verifiedCustomer(t);
    const room = (
      await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: user.cookie, body: {} })
    ).json().room;
    const url = `/api/chat/rooms/${room.id}/messages`;
    for (const text of ['hello\u0000', 'ring\u0007']) {
      const res = await withoutChange(t, () =>
        call(t, { method: 'POST', url, cookie: user.cookie, body: { text } }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual(refusedIn('text'));
    }
    const text = 'first line\nsecond line\r\n\tindented';
    const sent = await call(t, { method: 'POST', url, cookie: user.cookie, body: { text } });
    expect(sent.statusCode).toBe(200);
    const messages = (await call(t, { url, cookie: user.cookie })).json().messages;
    expect(messages.map((m: { messageText: string }) => m.messageText)).toEqual([text]);
  });

  it('refuses sign-in with a NUL in the e-mail address', async () => {
    const res = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/auth/sign-in',
        body: { email: `${customer.email}\u0000`, password: customer.password },
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual(refusedIn('email'));
  });

  it('names a nested field, an array item and a bad key, and checks the Idempotency-Key', async () => {
    const cases: Array<[unknown, string]> = [
      // The first bad field in the body's order.
      [{ values: { a: 'ok', b: 'bad\u0000', c: 'bad\u0000' } }, 'values.b'],
      [{ values: { support_chat_url: 'https://x\u0000' } }, 'values.support_chat_url'],
      [{ values: { list: ['ok', 'bad\u0001'] } }, 'values.list.1'],
      [{ values: { 'bad\u0000key': 'x' } }, 'a field name in values'],
      [{ 'bad\u007fkey': 'x' }, 'a field name'],
    ];
    for (const [body, field] of cases) {
      const res = await withoutChange(t, () =>
        call(t, { method: 'PUT', url: '/api/admin/settings', cookie: admin.cookie, body }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual(refusedIn(field));
    }
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const res = await withoutChange(t, () =>
      requestWithdrawal(
        t,
        user,
        { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC },
        'key\u0000',
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual(refusedIn('Idempotency-Key'));
  });
});

describe('multipart text fields', () => {
  const storedFiles = () => storedFileKeys(t);

  function upload(cookie: string, url: string, fields: Record<string, string>, files: FilePart[]) {
    const body = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url,
      headers: { cookie, origin: t.origin, 'content-type': body.contentType },
      payload: body.payload,
    });
  }
  const jpeg = (field: string, filename = 'front.jpg'): FilePart => ({
    field,
    filename,
    bytes: realJpeg(),
    type: 'image/jpeg',
  });
  const kycFields = {
    fullName: 'Ada Lovelace',
    phoneNumber: '+61 400 000 000',
    address: '1 Main St\nSydney NSW 2000',
  };

  it('refuses a KYC form with a control character in a one-line field or a file name', async () => {
    const user = await verifiedCustomer(t);
    const filesBefore = await storedFiles();
    const cases: Array<[Record<string, string>, FilePart[], string]> = [
      [{ ...kycFields, fullName: 'Ada\u0000' }, [jpeg('front')], 'fullName'],
      [{ ...kycFields, phoneNumber: '+61\n400' }, [jpeg('front')], 'phoneNumber'],
      [{ ...kycFields, address: '1 Main St\u0000' }, [jpeg('front')], 'address'],
      [kycFields, [jpeg('front', 'front\u0001.jpg')], 'the name of the file in front'],
    ];
    for (const [fields, files, field] of cases) {
      const res = await withoutChange(t, () => upload(user.cookie, '/api/kyc', fields, files));
      expect(res.statusCode, field).toBe(400);
      expect(errorOf(res)).toEqual(refusedIn(field));
    }
    expect(await storedFiles()).toEqual(filesBefore);
    // The address is a multi-line field: the same form with its line break is taken.
    const ok = await upload(user.cookie, '/api/kyc', kycFields, [jpeg('front')]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().submission.address).toBe(kycFields.address);
  });

  it('refuses chat attachment text with a NUL, storing no file', async () => {
    const user = await verifiedCustomer(t);
    const room = (
      await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: user.cookie, body: {} })
    ).json().room;
    const filesBefore = await storedFiles();
    const url = `/api/chat/rooms/${room.id}/attachments`;
    const res = await withoutChange(t, () =>
      upload(user.cookie, url, { text: 'see\u0000' }, [jpeg('files', 'a.jpg')]),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual(refusedIn('text'));
    expect(await storedFiles()).toEqual(filesBefore);
    const ok = await upload(user.cookie, url, { text: 'two\nlines' }, [jpeg('files', 'a.jpg')]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().messages[0].messageText).toBe('two\nlines');
  });
});

describe('forged history cursors', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64url');

  it('answers 400 "no longer valid" to every cursor the server did not make', async () => {
    const zero = '00000000-0000-0000-0000-000000000000';
    const cursors = [
      b64(`9999999999999999999:${zero}`),
      `9999999999999999999:${zero}`,
      b64(`999999999999999999:${zero}`),
      b64(`-99999999999999999:${zero}`),
      b64(`-1:${zero}`.replace('-1', '--1')),
      b64(`abc:${zero}`),
      b64(`1.5:${zero}`),
      b64('1700000000000000:not-a-uuid'),
      b64('1700000000000000:00000000-0000-0000-0000-00000000000g'),
      b64(`1700000000000000:${zero}x`),
      `${b64(`1700000000000000:${zero}`)}!!`,
      '',
    ];
    for (const cursor of cursors) {
      const res = await withoutChange(t, () =>
        call(t, {
          url: `/api/transactions?cursor=${encodeURIComponent(cursor)}`,
          cookie: customer.cookie,
        }),
      );
      if (cursor === '') {
        // An empty cursor is the first page.
        expect(res.statusCode).toBe(200);
        continue;
      }
      expect(res.statusCode, cursor).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'VALIDATION_FAILED',
        message: 'This page link is no longer valid. Reload the history.',
      });
    }
  });

  it('reads a well-formed cursor at the edges of the date range as a page', async () => {
    const zero = '00000000-0000-0000-0000-000000000000';
    for (const us of ['253402300799999999', '-62135596800000000', '0']) {
      const res = await call(t, {
        url: `/api/transactions?cursor=${b64(`${us}:${zero}`)}`,
        cookie: customer.cookie,
      });
      expect(res.statusCode, us).toBe(200);
      expect(res.json()).toMatchObject({ items: [], nextCursor: null });
    }
  });
});

describe('ids that do not parse', () => {
  it('answers 400 or 404 with a message on every route with a parameter, never a 500', async () => {
    const failures: string[] = [];
    for (const route of allRoutes()) {
      if (!isMethod(route.method) || paramNames(route.url).length === 0) continue;
      const method = route.method;
      for (const bad of ['not-a-uuid', "1'%20OR%20'1'='1", 'x'.repeat(500), '%E2%80%AE', '%zz']) {
        const res = await withoutChange(t, () =>
          send(method, fill(route.url, bad), route.access, method === 'GET' ? undefined : {}),
        );
        const body = String(res.headers['content-type']).includes('json') ? res.json() : {};
        const ok =
          (res.statusCode === 400 || res.statusCode === 404) &&
          typeof body.message === 'string' &&
          body.message !== '';
        if (!ok)
          failures.push(
            `${method} ${route.url} with ${bad.slice(0, 20)}: ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses out-of-range pages and days that do not exist on the admin screens', async () => {
    for (const url of [
      '/api/admin/audit?page=0',
      '/api/admin/audit?page=1e400',
      '/api/admin/audit?page=99999999999999999999',
      '/api/admin/audit?from=2024-02-30',
      '/api/admin/audit?to=0000-01-01',
      '/api/admin/audit?from=2024-13-01',
      '/api/admin/audit?actor=nobody',
      '/api/admin/audit/export.csv?to=2023-02-29',
      '/api/admin/users?page=-1',
      '/api/admin/users?pageSize=100000',
      '/api/admin/users/figures?ids=1,2',
      '/api/admin/transactions?page=NaN',
      '/api/admin/transactions?status=everything',
      '/api/admin/recovery-phrases?pageSize=0',
      '/api/admin/user-directory?limit=9999999999999999999999',
    ]) {
      const res = await withoutChange(t, () => call(t, { url, cookie: admin.cookie }));
      expect(res.statusCode, url).toBe(400);
      expect(errorOf(res).error).toBe('VALIDATION_FAILED');
    }
    const leap = await call(t, { url: '/api/admin/audit?from=2024-02-29', cookie: admin.cookie });
    expect(leap.statusCode).toBe(200);
  });
});

/** A small seeded generator, so that a failure can be replayed with the same strings. */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_PIECES = [
  '\u0000',
  '\u0001',
  '\u001b[31m',
  '\u007f',
  '\ud800',
  '\udfff',
  '\uffff',
  '\u202e',
  "'",
  '"',
  '\\',
  "'; DROP TABLE users; --",
  '%',
  '_',
  '{"$ne":null}',
  '}{',
  '[',
  '__proto__',
  'constructor',
  '99999999999999999999999999',
  '-9223372036854775809',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '0x1f',
  '2024-02-30',
  '0000-00-00',
  '00000000-0000-0000-0000-000000000000',
  '../../etc/passwd',
  '<script>',
  ' ',
  '',
];

function hostileString(next: () => number): string {
  const roll = next();
  if (roll < 0.05) return 'x'.repeat(1 + Math.floor(next() * 20_000));
  if (roll < 0.1) return '9'.repeat(1 + Math.floor(next() * 400));
  let out = '';
  const parts = 1 + Math.floor(next() * 4);
  for (let i = 0; i < parts; i++) {
    if (next() < 0.3) out += String.fromCharCode(Math.floor(next() * 0x10000));
    else out += HOSTILE_PIECES[Math.floor(next() * HOSTILE_PIECES.length)];
  }
  return out;
}

/** Percent-encodes a string for a query; a lone surrogate goes as the bytes it would be. */
function queryValue(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

describe('hostile strings', () => {
  // The sign-in probes check passwords with scrypt at N=2^17 until the address is limited:
  // dozens of them take tens of seconds on a busy two-core machine.
  it('never get a 5xx from a representative set of routes', async () => {
    const next = generator(0xc0ffee);
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const room = (
      await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: user.cookie, body: {} })
    ).json().room;
    type Probe = (v: string) => Promise<LightMyRequestResponse>;
    const get = (url: string, cookie: string) => call(t, { url, cookie });
    const probes: Array<[string, Probe]> = [
      [
        'admin transactions q',
        (v) => get(`/api/admin/transactions?q=${queryValue(v)}`, admin.cookie),
      ],
      [
        'admin transactions page',
        (v) => get(`/api/admin/transactions?page=${queryValue(v)}`, admin.cookie),
      ],
      ['admin users q', (v) => get(`/api/admin/users?q=${queryValue(v)}`, admin.cookie)],
      ['admin audit from', (v) => get(`/api/admin/audit?from=${queryValue(v)}`, admin.cookie)],
      [
        'admin audit targetUser',
        (v) => get(`/api/admin/audit?targetUser=${queryValue(v)}`, admin.cookie),
      ],
      [
        'admin transaction id',
        (v) => get(`/api/admin/transactions/${queryValue(v)}`, admin.cookie),
      ],
      ['history cursor', (v) => get(`/api/transactions?cursor=${queryValue(v)}`, user.cookie)],
      [
        'withdrawal',
        (v) => requestWithdrawal(t, user, { assetId: 'BTC', amount: v, address: v, memo: v }),
      ],
      [
        'chat text',
        (v) =>
          call(t, {
            method: 'POST',
            url: `/api/chat/rooms/${room.id}/messages`,
            cookie: user.cookie,
            body: { text: v },
          }),
      ],
      [
        'sign-in',
        (v) =>
          call(t, { method: 'POST', url: '/api/auth/sign-in', body: { email: v, password: v } }),
      ],
      [
        'admin add transaction',
        (v) =>
          call(t, {
            method: 'POST',
            url: '/api/admin/transactions',
            cookie: admin.cookie,
            body: {
              userId: user.userId,
              assetId: 'BTC',
              type: 'deposit',
              cryptoAmount: v,
              usdAmount: v,
              transactionDate: v,
              reason: v,
            },
          }),
      ],
    ];
    const failures: string[] = [];
    let sent = 0;
    for (let i = 0; i < 40; i++) {
      for (const [name, probe] of probes) {
        const value = hostileString(next);
        const res = await probe(value);
        sent += 1;
        if (res.statusCode >= 500)
          failures.push(`${name} with ${JSON.stringify(value.slice(0, 80))}: ${res.statusCode}`);
      }
    }
    // Bodies nested deeper than any call stack, with a NUL or a prototype key at the bottom.
    const deepArray = `${'['.repeat(200_000)}"\u0000"${']'.repeat(200_000)}`;
    const deepObject = `${'{"a":'.repeat(100_000)}{"__proto__":{"x":1}}${'}'.repeat(100_000)}`;
    for (const payload of [deepArray, deepObject]) {
      for (const url of ['/api/auth/sign-in', '/api/withdrawals']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { origin: t.origin, cookie: user.cookie, 'content-type': 'application/json' },
          payload,
        });
        sent += 1;
        if (res.statusCode >= 500) failures.push(`${url} with a deep body: ${res.statusCode}`);
      }
    }
    expect(sent).toBeGreaterThanOrEqual(400);
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('malformed multipart bodies', () => {
  /** Bodies a broken or hostile client sends as `multipart/form-data`, each unreadable. */
  function malformed(): Array<{ name: string; contentType: string; payload: Buffer }> {
    const good = multipart({ text: 'hello' }, [
      { field: 'files', filename: 'a.jpg', bytes: realJpeg(), type: 'image/jpeg' },
    ]);
    const boundary = good.contentType.split('boundary=')[1] ?? '';
    return [
      { name: 'no boundary', contentType: 'multipart/form-data', payload: good.payload },
      {
        name: 'an empty boundary',
        contentType: 'multipart/form-data; boundary=',
        payload: good.payload,
      },
      {
        name: 'a truncated body',
        contentType: good.contentType,
        payload: good.payload.subarray(0, Math.floor(good.payload.length / 2)),
      },
      {
        name: 'a boundary that is not in the body',
        contentType: 'multipart/form-data; boundary=nothing-like-it',
        payload: good.payload,
      },
      {
        name: 'an unknown charset',
        contentType: `multipart/form-data; boundary=${boundary}; charset=x-no-such-charset`,
        payload: good.payload,
      },
      {
        name: 'a part without headers',
        contentType: good.contentType,
        payload: Buffer.from(`--${boundary}\r\n\r\nloose\r\n--${boundary}--\r\n`),
      },
    ];
  }

  it('is a 400 on every upload route and a 4xx on every other route, changing nothing', async () => {
    const user = await verifiedCustomer(t);
    const room = (
      await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: user.cookie, body: {} })
    ).json().room;
    const uploadRoutes = [
      { url: '/api/kyc', cookie: user.cookie },
      { url: `/api/chat/rooms/${room.id}/attachments`, cookie: user.cookie },
      { url: `/api/admin/chat/rooms/${room.id}/attachments`, cookie: admin.cookie },
    ];
    const filesBefore = await storedFileKeys(t);
    const failures: string[] = [];
    const post = (url: string, cookie: string | undefined, body: ReturnType<typeof malformed>[0]) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: {
          ...(cookie ? { cookie } : {}),
          origin: t.origin,
          'content-type': body.contentType,
        },
        payload: body.payload,
      });
    await withoutChange(t, async () => {
      for (const route of uploadRoutes) {
        for (const body of malformed()) {
          const res = await post(route.url, route.cookie, body);
          if (res.statusCode !== 400 || res.json().error !== 'VALIDATION_FAILED')
            failures.push(
              `${route.url} (${body.name}): ${res.statusCode} ${res.body.slice(0, 160)}`,
            );
        }
      }
      // Every other route that takes a body refuses the same bodies as a client error too.
      for (const route of allRoutes()) {
        if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) continue;
        const url = fill(route.url, A_UUID).replace('*', 'anything');
        for (const body of malformed()) {
          const res = await t.app.inject({
            method: route.method as Method,
            url,
            headers: {
              ...(cookieFor(route.access) ? { cookie: cookieFor(route.access) } : {}),
              origin: t.origin,
              'content-type': body.contentType,
            },
            payload: body.payload,
          });
          if (res.statusCode < 400 || res.statusCode >= 500)
            failures.push(`${route.method} ${route.url} (${body.name}): ${res.statusCode}`);
        }
      }
    });
    expect(failures).toEqual([]);
    expect(await storedFileKeys(t)).toEqual(filesBefore);
  });
});
