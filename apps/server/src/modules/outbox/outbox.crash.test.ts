import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { startFakeFeeds } from '@server-test/fake-feeds';
import { freePort } from '@server-test/free-port';
import { createTestApp, linkFromMail, STRONG_PASSWORD, type TestApp } from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The real server as a child process, killed with SIGKILL between the commit of a sign-up
 * and the delivery of its verification mail (COFFER_TEST_FAULT, lib/test-fault.ts), then
 * started again: the mail goes out after the restart, once.
 */

let t: TestApp;
let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-crash-data-'));
const root = path.resolve(import.meta.dirname, '../../../../..');
const children: ChildProcess[] = [];

beforeAll(async () => {
  // Only for its database: the server under test is the child process.
  t = await createTestApp();
  feeds = await startFakeFeeds();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && !child.signalCode) child.kill();
  await feeds.close();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Server = { child: ChildProcess; url: string; exited: Promise<NodeJS.Signals | number> };

/** Starts `main.ts` on the test database and resolves once it listens. */
async function startServer(fault?: string): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      LOG_LEVEL: 'warn',
      COFFER_TEST_FAULT: fault ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | number>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1)),
  );
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors += String(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    const lines = child.stdout ? readline.createInterface({ input: child.stdout }) : null;
    lines?.on('line', (line) => {
      if (line.includes('Coffer is running at')) resolve();
    });
    void exited.then((how) =>
      reject(new Error(`server exited (${how}) before listening\n${errors}`)),
    );
  });
  return { child, url, exited };
}

function signUp(server: Server, email: string) {
  return fetch(`${server.url}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
}

const mailFiles = () => {
  const folder = path.join(dataDir, 'outbox');
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.eml')) : [];
};

async function outboxRows() {
  const { rows } = await t.services.pool.query<{ kind: string; done: boolean }>(
    'SELECT kind, done_at IS NOT NULL AS done FROM outbox ORDER BY id',
  );
  return rows;
}

describe('a crash between a commit and its mail', () => {
  it('loses no mail: the restarted server sends it, once', async () => {
    const email = `crash-${randomBytes(4).toString('hex')}@example.com`;

    const first = await startServer('kill-after-commit');
    // The server dies while answering: the request fails, the process ends by SIGKILL.
    await expect(signUp(first, email)).rejects.toThrow();
    expect(await first.exited).toBe('SIGKILL');

    // The sign-up committed with its mail queued, and no mail left.
    const users = await t.services.pool.query(
      'SELECT email_verified_at FROM users WHERE email = $1',
      [email],
    );
    expect(users.rows).toEqual([{ email_verified_at: null }]);
    expect(await outboxRows()).toEqual([{ kind: 'mail', done: false }]);
    expect(mailFiles()).toEqual([]);

    // Started again (no fault): the outbox job delivers what the crash left.
    const second = await startServer();
    await expect.poll(outboxRows, { timeout: 15_000 }).toEqual([{ kind: 'mail', done: true }]);
    const files = mailFiles();
    expect(files).toHaveLength(1);
    const mail = fs.readFileSync(path.join(dataDir, 'outbox', files[0] ?? ''), 'utf8');
    expect(mail).toContain(`To: ${email}`);
    expect(mail).toContain('Subject: Confirm your Coffer account');

    // The mailed link is the one the committed sign-up stored: it verifies the account.
    const token = new URL(linkFromMail(mail, first.url)).searchParams.get('token');
    const verified = await fetch(`${second.url}/api/auth/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({ token }),
    });
    expect(verified.status).toBe(200);

    // Later job runs send nothing more.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(mailFiles()).toHaveLength(1);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 90_000);
});
