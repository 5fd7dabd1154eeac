import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
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
  /** Every mail written to the outbox so far, oldest first, as raw text. */
  mails(): string[];
  close(): Promise<void>;
};

/** A fresh database copied from the migrated template, and the real app on top of it. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const serverUrl = inject('pgServerUrl');
  const dbName = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${TEMPLATE_DB}`);
  await admin.end();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-data-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN, ...env }), webDistDir: null };
  const pool = createPool(`${serverUrl}/${dbName}`);
  const log = createLogger('silent');
  const services = createServices({
    config,
    pool,
    db: createDb(pool),
    secrets: createSecrets(randomBytes(32)),
    mailer: createMailer({ smtpUrl: null, dataDir, log }),
    log,
  });
  await services.settings.ensureDefaults();
  const app = await buildApp(services, { logger: false, serveWeb: false });
  await app.ready();
  const outbox = path.join(dataDir, 'outbox');
  return {
    app,
    services,
    dataDir,
    mails: () =>
      fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .sort()
            .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
        : [],
    async close() {
      await app.close();
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
export function linkFromMail(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = text.match(new RegExp(`${ORIGIN}/[^\\s]+`));
  if (!match) throw new Error(`no link in mail:\n${raw}`);
  return match[0];
}

type Req = { method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; body?: unknown; cookie?: string; ip?: string };

/** A request as the browser would send it: same-origin, JSON. */
export function call(t: TestApp, req: Req) {
  return t.app.inject({
    method: req.method ?? 'GET',
    url: req.url,
    headers: {
      origin: ORIGIN,
      ...(req.cookie ? { cookie: req.cookie } : {}),
      ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    remoteAddress: req.ip ?? '127.0.0.1',
    ...(req.body !== undefined ? { payload: JSON.stringify(req.body) } : {}),
  });
}

export type SignedInUser = { email: string; password: string; cookie: string; userId: string; totpSecret: string | null; backupCodes: string[]; seedPhrase: string | null };

/** Signs up, follows the e-mailed link and signs in: a session that has not passed 2FA yet. */
export async function signUpAndSignIn(t: TestApp, email = `user-${randomBytes(4).toString('hex')}@example.com`): Promise<SignedInUser> {
  const up = await call(t, { method: 'POST', url: '/api/auth/sign-up', body: { email, password: STRONG_PASSWORD } });
  if (up.statusCode !== 200) throw new Error(`sign-up failed: ${up.body}`);
  const mail = t.mails().findLast((m) => m.includes(`To: ${email}`));
  if (!mail) throw new Error('no verification mail');
  const token = new URL(linkFromMail(mail)).searchParams.get('token');
  const verified = await call(t, { method: 'POST', url: '/api/auth/verify-email', body: { token } });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  const res = await call(t, { method: 'POST', url: '/api/auth/sign-in', body: { email, password: STRONG_PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return { email, password: STRONG_PASSWORD, cookie: sessionCookie(res), userId: res.json().session.user.id, totpSecret: null, backupCodes: [], seedPhrase: null };
}

/** Runs the forced 2FA setup with a code computed independently: a fully verified session. */
export async function completeTwoFactor(t: TestApp, user: SignedInUser, now = Date.now()): Promise<SignedInUser> {
  const setup = await call(t, { method: 'POST', url: '/api/2fa/setup', cookie: user.cookie });
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  const { secret, backupCodes, seedPhrase } = setup.json();
  const enable = await call(t, { method: 'POST', url: '/api/2fa/enable', cookie: user.cookie, body: { code: totpAt(secret, now) } });
  if (enable.statusCode !== 200) throw new Error(`enable failed: ${enable.body}`);
  return { ...user, cookie: sessionCookie(enable), totpSecret: secret, backupCodes, seedPhrase };
}

export async function verifiedCustomer(t: TestApp, email?: string): Promise<SignedInUser> {
  return completeTwoFactor(t, await signUpAndSignIn(t, email));
}

/** A verified admin: a customer promoted by a row in admin_users (as the CLI does). */
export async function verifiedAdmin(t: TestApp): Promise<SignedInUser> {
  const user = await signUpAndSignIn(t);
  await t.services.users.makeAdmin(user.userId);
  return completeTwoFactor(t, user);
}
