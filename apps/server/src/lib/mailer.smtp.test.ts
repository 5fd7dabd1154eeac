import type { AddressInfo } from 'node:net';
import { call, createTestApp, type TestApp } from '@server-test/helpers';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createServices } from '../app-services';
import { createDb, createPool } from '../db/client';
import { createLogger } from '../infra';
import { createMailer } from './mailer';

/**
 * A real SMTP server on loopback that can refuse every recipient, hang (accept the
 * connection and never greet), or accept, and keeps what it received.
 */
function fakeSmtp() {
  let mode: 'refuse' | 'hang' | 'accept' = 'accept';
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      // A server that takes the connection and never says hello.
      if (mode === 'hang') return;
      callback();
    },
    onRcptTo(_address, _session, callback) {
      if (mode === 'refuse') {
        callback(
          Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }),
        );
        return;
      }
      callback();
    },
    onData(stream: SMTPServerDataStream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  return {
    received,
    setMode(next: typeof mode) {
      mode = next;
    },
    async listen(): Promise<number> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.server.address() as AddressInfo).port;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
const smtp = fakeSmtp();
let port = 0;
beforeAll(async () => {
  t = await createTestApp();
  port = await smtp.listen();
});
afterAll(async () => {
  await smtp.close();
  await t.close();
});

/** A second instance of the app on the test's database whose mail goes to the fake server. */
async function appWithSmtp() {
  const pool = createPool(t.databaseUrl);
  const log = createLogger('silent');
  const services = createServices({
    config: { ...t.services.config, mailFrom: 'Coffer Support <support@coffer.example>' },
    pool,
    db: createDb(pool),
    secrets: t.services.secrets,
    mailer: createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Coffer Support <support@coffer.example>',
      dataDir: t.dataDir,
      log,
      timeouts: { connectionTimeout: 1_000, greetingTimeout: 1_000, socketTimeout: 2_000 },
    }),
    log,
  });
  const app = await buildApp(services, { logger: false, serveWeb: false });
  await app.ready();
  return {
    app,
    services,
    async close() {
      await app.close();
      await services.limiter.close();
      await pool.end();
    },
  };
}

async function outboxRows(email: string) {
  const { rows } = await t.services.pool.query<{
    attempts: number;
    done: boolean;
    last_error: string | null;
  }>(
    `SELECT attempts, done_at IS NOT NULL AS done, last_error FROM outbox
      WHERE kind = 'mail' AND created_at > now() - interval '10 minutes' ORDER BY id`,
  );
  return { rows, email };
}

describe('mail through a real SMTP server', () => {
  it('a sign-up while the mail server refuses, then hangs, then accepts: one account, its mail delivered once, the request never waits on the server', async () => {
    const other = await appWithSmtp();
    try {
      const instance: TestApp = { ...t, app: other.app, services: other.services };
      const email = `smtp-${Date.now()}@example.com`;

      smtp.setMode('refuse');
      const signUp = await call(instance, {
        method: 'POST',
        url: '/api/auth/sign-up',
        body: { email, password: 'Coffer-smtp-Pass-8' },
      });
      expect(signUp.statusCode).toBe(200);
      const users = await t.services.pool.query('SELECT id FROM users WHERE email = $1', [email]);
      expect(users.rowCount).toBe(1);
      let { rows } = await outboxRows(email);
      expect(rows.at(-1)).toMatchObject({ attempts: 1, done: false });
      expect(rows.at(-1)?.last_error).toContain('451');

      // A server that accepts the connection and never answers: the request that queued a
      // mail answers within the outbox's wait, and the attempt fails on the greeting timeout.
      smtp.setMode('hang');
      await t.services.pool.query(
        'UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL',
      );
      const started = Date.now();
      const resend = await call(instance, {
        method: 'POST',
        url: '/api/auth/resend-verification',
        body: { email },
      });
      const tookMs = Date.now() - started;
      expect(resend.statusCode).toBe(200);
      expect(tookMs).toBeLessThan(5_000);
      await other.services.outbox.deliver({ wait: 'all' });
      ({ rows } = await outboxRows(email));
      expect(rows.every((r) => !r.done)).toBe(true);

      // The server is back: everything queued goes out with the next run, once each.
      smtp.setMode('accept');
      await t.services.pool.query(
        'UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL',
      );
      await other.services.outbox.deliver({ wait: 'all' });
      ({ rows } = await outboxRows(email));
      expect(rows.every((r) => r.done)).toBe(true);
      const toCustomer = smtp.received.filter((m) => m.includes(`To: ${email}`));
      expect(toCustomer.length).toBe(rows.length);
      const mail = toCustomer.at(-1) ?? '';
      expect(mail).toContain('From: Coffer Support <support@coffer.example>');
      expect(mail).toMatch(/Message-ID: <outbox-\d+-\d+@coffer\.example>/);
      expect(mail).toContain('Content-Type: text/plain');
      expect(mail).toContain('Content-Type: text/html');
      // Again: nothing left to send, nothing sent twice.
      await other.services.outbox.deliver({ wait: 'all' });
      expect(smtp.received.filter((m) => m.includes(`To: ${email}`)).length).toBe(rows.length);
    } finally {
      await other.close();
    }
  }, 60_000);
});
