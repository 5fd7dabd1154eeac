import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SECURITY_EVENT_FAILURES, STAFF_ROLES, type TStaffRole } from '@coffer/shared';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { Logger } from 'pino';
import { expect, inject } from 'vitest';
import { buildApp } from '../src/app';
import { createServices, type Services } from '../src/app-services';
import { loadConfig } from '../src/config';
import { createDb, createPool } from '../src/db/client';
import { createLogger } from '../src/infra';
import { createSecrets } from '../src/lib/crypto';
import { createMailer } from '../src/lib/mailer';
import { TEMPLATE_DB } from './global-setup';
import { totpAt } from './totp-reference';

export const ORIGIN = 'http://localhost:3000';
export const STRONG_PASSWORD = 'Coffer-Test-1';

export type TestApp = {
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  /** PUBLIC_URL's origin: what the browser sends as `Origin` on this app's own pages. */
  origin: string;
  /** The test file's own database, for a process (the CLI) that connects by itself. */
  databaseUrl: string;
  /**
   * The app's secret key as COFFER_SECRET_KEY (createTestApp's): a process on its database
   * (the CLI) must use the same, or its start-up key check refuses it.
   */
  secretKeyHex?: string;
  /** Every mail written to the outbox so far, oldest first, as raw text. */
  mails(): string[];
  close(): Promise<void>;
};

/**
 * A fresh database copied from the migrated template, and the real app on top of it; silent
 * unless given a logger (a test that reads the log lines passes one).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  logger?: Logger,
): Promise<TestApp> {
  const serverUrl = inject('pgServerUrl');
  const dbName = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${TEMPLATE_DB}`);
  await admin.end();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-data-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN, ...env }),
    webDistDir: null,
  };
  const databaseUrl = `${serverUrl}/${dbName}`;
  const secretKey = randomBytes(32);
  const pool = createPool(databaseUrl);
  const log = logger ?? createLogger('silent');
  const services = createServices({
    config,
    pool,
    db: createDb(pool),
    secrets: createSecrets(secretKey),
    mailer: createMailer({ smtpUrl: null, from: 'Coffer <no-reply@coffer.test>', dataDir, log }),
    log,
  });
  await services.settings.ensureDefaults();
  const app = await buildApp(services, { logger: logger !== undefined, serveWeb: false });
  await app.ready();
  const outbox = path.join(dataDir, 'outbox');
  return {
    app,
    services,
    dataDir,
    origin: new URL(config.publicUrl).origin,
    databaseUrl,
    secretKeyHex: secretKey.toString('hex'),
    mails: () =>
      fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .sort()
            .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
        : [],
    async close() {
      // Whatever the file did, its ledger must still balance: counted for the run's
      // summary (global-setup.ts) and a failure of the file if it does not.
      const mismatches = await services.ledger.reconcile(pool);
      const { rows } = await pool.query<{ wallets: number; rows: number }>(
        'SELECT (SELECT count(*) FROM user_wallets)::int AS wallets, (SELECT count(*) FROM transactions)::int AS rows',
      );
      fs.appendFileSync(
        inject('reconciliationLog'),
        `${JSON.stringify({ ...rows[0], mismatches: mismatches.length })}\n`,
      );
      if (mismatches.length > 0) {
        throw new Error(`ledger out of balance in ${dbName}: ${JSON.stringify(mismatches)}`);
      }
      await app.close();
      await services.limiter.close();
      await pool.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const drop = new pg.Client({ connectionString: `${serverUrl}/postgres` });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await drop.end();
    },
  };
}

/** The `coffer_session` cookie a response set, as a Cookie header value. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'coffer_session');
  if (!cookie) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `coffer_session=${cookie.value}`;
}

/** Extracts the first link to PUBLIC_URL from a raw .eml (quoted-printable soft breaks undone). */
export function linkFromMail(raw: string, origin = ORIGIN): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = text.match(new RegExp(`${origin}/[^\\s]+`));
  if (!match) throw new Error(`no link in mail:\n${raw}`);
  return match[0];
}

type Req = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  cookie?: string;
  ip?: string;
  /** The `Origin` header; the app's own by default, null to send none. */
  origin?: string | null;
  /** More headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, string>;
};

/** A request as the browser would send it: same-origin, JSON. */
export function call(t: TestApp, req: Req) {
  const origin = req.origin === undefined ? t.origin : req.origin;
  return t.app.inject({
    method: req.method ?? 'GET',
    url: req.url,
    headers: {
      ...(origin !== null ? { origin } : {}),
      ...(req.cookie ? { cookie: req.cookie } : {}),
      ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...req.headers,
    },
    remoteAddress: req.ip ?? '127.0.0.1',
    ...(req.body !== undefined ? { payload: JSON.stringify(req.body) } : {}),
  });
}

export type SignedInUser = {
  email: string;
  password: string;
  cookie: string;
  userId: string;
  totpSecret: string | null;
  backupCodes: string[];
  seedPhrase: string | null;
};

let signUpAddress = 0;

/** Signs up as the browser does; each call from its own address unless one is given. */
export function signUp(t: TestApp, email: string, password = STRONG_PASSWORD, ip?: string) {
  // A distinct address per sign-up keeps a file with many users under the per-address
  // limit on sign-up mail; tests of that limit pass their own address.
  signUpAddress += 1;
  const from = ip ?? `198.51.100.${signUpAddress % 250}`;
  return call(t, { method: 'POST', url: '/api/auth/sign-up', body: { email, password }, ip: from });
}

/** The mails sent to one address so far, oldest first. */
export function mailsTo(t: TestApp, email: string): string[] {
  return t.mails().filter((m) => m.includes(`To: ${email}`));
}

/** The token of the newest verification link mailed to an address. */
export function verificationToken(t: TestApp, email: string): string {
  const mail = mailsTo(t, email).findLast((m) => m.includes('/verify-email?'));
  if (!mail) throw new Error(`no verification mail to ${email}`);
  const token = new URL(linkFromMail(mail, t.origin)).searchParams.get('token');
  if (!token) throw new Error('verification link without a token');
  return token;
}

/** Signs up, follows the e-mailed link and signs in: a session that has not passed 2FA yet. */
export async function signUpAndSignIn(
  t: TestApp,
  email = `user-${randomBytes(4).toString('hex')}@example.com`,
): Promise<SignedInUser> {
  const up = await signUp(t, email);
  if (up.statusCode !== 200) throw new Error(`sign-up failed: ${up.body}`);
  const token = verificationToken(t, email);
  const verified = await call(t, {
    method: 'POST',
    url: '/api/auth/verify-email',
    body: { token },
  });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  const res = await signIn(t, email, STRONG_PASSWORD);
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return {
    email,
    password: STRONG_PASSWORD,
    cookie: sessionCookie(res),
    userId: res.json().session.user.id,
    totpSecret: null,
    backupCodes: [],
    seedPhrase: null,
  };
}

/**
 * The words a customer types back before 2FA is turned on: those of the setup's new phrase
 * at the positions it asks for (none when it shows no phrase).
 */
export function phraseWordsFor(setup: {
  seedPhrase: string | null;
  phraseCheck: number[] | null;
}): string[] {
  const words = setup.seedPhrase?.split(' ') ?? [];
  return (setup.phraseCheck ?? []).map((position) => words[position - 1] ?? '');
}

/** Runs the forced 2FA setup with a code computed independently: a fully verified session. */
export async function completeTwoFactor(
  t: TestApp,
  user: SignedInUser,
  now = Date.now(),
): Promise<SignedInUser> {
  const setup = await call(t, { method: 'POST', url: '/api/2fa/setup', cookie: user.cookie });
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  const { secret, backupCodes, seedPhrase } = setup.json();
  const enable = await call(t, {
    method: 'POST',
    url: '/api/2fa/enable',
    cookie: user.cookie,
    body: { code: totpAt(secret, now), phraseWords: phraseWordsFor(setup.json()) },
  });
  if (enable.statusCode !== 200) throw new Error(`enable failed: ${enable.body}`);
  return { ...user, cookie: sessionCookie(enable), totpSecret: secret, backupCodes, seedPhrase };
}

export async function verifiedCustomer(t: TestApp, email?: string): Promise<SignedInUser> {
  return completeTwoFactor(t, await signUpAndSignIn(t, email));
}

/**
 * A verified admin: a customer promoted by a row in admin_users (as the CLI does), with
 * every role unless some are named.
 */
export async function verifiedAdmin(
  t: TestApp,
  roles: readonly TStaffRole[] = STAFF_ROLES,
): Promise<SignedInUser> {
  const user = await signUpAndSignIn(t);
  await t.services.users.makeAdmin(user.userId, roles);
  return completeTwoFactor(t, user);
}

/**
 * A second staff member approves a change another proposed (two people), with a fresh code
 * of theirs: the response, whatever it says. `step` picks a code not used yet.
 */
export function approveChange(t: TestApp, approver: SignedInUser, changeId: string, step = 1) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/changes/${changeId}/approve`,
    cookie: approver.cookie,
    body: { stepUp: { code: codeFor(approver, step) } },
  });
}

/**
 * A customer made staff after their 2FA setup: an admin with the recovery phrase of their
 * customer days (an admin's own setup makes none), which staff still cannot use.
 */
export async function promotedCustomer(t: TestApp): Promise<SignedInUser> {
  const user = await verifiedCustomer(t);
  await t.services.users.makeAdmin(user.userId);
  return user;
}

/** Signs in from a browser that has no session yet; the response, whatever it says. */
export function signIn(t: TestApp, email: string, password: string, ip?: string) {
  return call(t, {
    method: 'POST',
    url: '/api/auth/sign-in',
    body: { email, password },
    ...(ip ? { ip } : {}),
  });
}

/** A second device of the same user: a new session that has not passed 2FA. */
export async function newSession(t: TestApp, user: SignedInUser): Promise<string> {
  const res = await signIn(t, user.email, user.password);
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return sessionCookie(res);
}

/**
 * The authenticator code `steps` 30-second steps from now. A code is accepted once, so a
 * test that needs a second code after setup takes the next step's (one step of drift is allowed).
 */
export function codeFor(user: SignedInUser, steps = 0): string {
  if (!user.totpSecret) throw new Error('this user has no two-factor secret');
  return totpAt(user.totpSecret, Date.now() + steps * 30_000);
}

/** Every table of the app, read from the database so that tables added later are covered too. */
async function tableNames(t: TestApp): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/** A table's rows as JSON text, in a stable order. */
export async function tableText(t: TestApp, table: string): Promise<string> {
  const { rows } = await t.services.pool.query<{ json: string }>(
    `SELECT coalesce(json_agg(r ORDER BY r::text), '[]')::text AS json FROM ${pg.escapeIdentifier(table)} r`,
  );
  return rows[0]?.json ?? '[]';
}

/** Every row of every table, by table: to look for plaintext anywhere, or for any change. */
export async function databaseText(
  t: TestApp,
  except: string[] = [],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await tableNames(t)) {
    if (!except.includes(table)) out[table] = await tableText(t, table);
  }
  return out;
}

/**
 * The security log without its refused attempts (wrong passwords, codes): what a refusal
 * leaves as it was.
 */
async function securityEventsButFailures(t: TestApp): Promise<string> {
  const { rows } = await t.services.pool.query<{ json: string }>(
    `SELECT coalesce(json_agg(e ORDER BY e.id), '[]')::text AS json
       FROM security_events e WHERE NOT (kind = ANY($1))`,
    [SECURITY_EVENT_FAILURES],
  );
  return rows[0]?.json ?? '[]';
}

/**
 * The sessions without their idle timer: any signed-in request slides `last_seen_at` (and the
 * idle expiry with it) once a minute (the session plugin), a refused one included, so on a
 * slow run a refusal that crosses that minute would read as a change it did not make.
 */
async function sessionsButIdleTimer(t: TestApp): Promise<string> {
  const { rows } = await t.services.pool.query<{ json: string }>(
    `SELECT coalesce(json_agg(to_jsonb(s) - 'last_seen_at' - 'expires_at' ORDER BY s.id), '[]')::text AS json
       FROM sessions s`,
  );
  return rows[0]?.json ?? '[]';
}

/**
 * Runs a call that must be refused and proves it left the database as it was and sent no
 * mail. Attempt counters are left out, and so are the security log's entries of refused
 * attempts (counting and logging a refused attempt is their job) and the sessions' idle
 * timer (every request slides it).
 */
export async function withoutChange<T>(t: TestApp, act: () => Promise<T>): Promise<T> {
  const except = ['rate_limits', 'security_events', 'sessions'];
  const before = await databaseText(t, except);
  const sessionsBefore = await sessionsButIdleTimer(t);
  const eventsBefore = await securityEventsButFailures(t);
  const mailsBefore = t.mails().length;
  const result = await act();
  expect(await databaseText(t, except)).toEqual(before);
  expect(await sessionsButIdleTimer(t)).toEqual(sessionsBefore);
  expect(await securityEventsButFailures(t)).toEqual(eventsBefore);
  expect(t.mails().length).toBe(mailsBefore);
  return result;
}

/** The keys of the private files stored (in the database), sorted; under `prefixes` if given. */
export async function storedFileKeys(t: TestApp, prefixes?: string[]): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ key: string }>(
    `SELECT key FROM stored_files
      WHERE $1::text[] IS NULL OR split_part(key, '/', 1) = ANY($1::text[]) ORDER BY key`,
    [prefixes ?? null],
  );
  return rows.map((r) => r.key);
}

/** The error body of a refused call. */
export function errorOf(res: LightMyRequestResponse): { error: string; message: string } {
  return res.json();
}

/** Whether a cookie still opens a session: a signed-in route answers 200 rather than 401. */
export async function sessionWorks(t: TestApp, cookie: string): Promise<boolean> {
  const res = await call(t, { url: '/api/2fa/status', cookie });
  if (res.statusCode !== 200 && res.statusCode !== 401)
    throw new Error(`unexpected ${res.statusCode}: ${res.body}`);
  return res.statusCode === 200;
}

const GATE_ERRORS = new Set(['UNAUTHENTICATED', 'TWO_FACTOR_REQUIRED', 'FORBIDDEN']);

/** The gate's refusal in a response, or null when the gate let the request through. */
export function gateError(res: LightMyRequestResponse): string | null {
  if (res.statusCode !== 401 && res.statusCode !== 403) return null;
  const error: unknown = res.json().error;
  return typeof error === 'string' && GATE_ERRORS.has(error) ? error : null;
}

/** The gate's refusal of a cookie on a customer route, or null when it lets the request through. */
export async function gateRefusal(t: TestApp, cookie: string | undefined): Promise<string | null> {
  return gateError(await call(t, { url: '/api/recovery-phrase', ...(cookie ? { cookie } : {}) }));
}
