import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { buildApp } from '../src/app';
import { createServices } from '../src/app-services';
import { loadConfig } from '../src/config';
import { createDb, createPool } from '../src/db/client';
import { createLogger } from '../src/infra';
import { createSecrets } from '../src/lib/crypto';
import { createMailer } from '../src/lib/mailer';
import { freePort } from './free-port';
import { ORIGIN, type TestApp } from './helpers';

/**
 * The real server as a child process (`main.ts`, as `npm start` runs it), for what only a
 * process shows: signals, exit codes, a database that dies under it.
 */
export type ServerProcess = {
  child: ChildProcess;
  /** http://127.0.0.1:port */
  url: string;
  /** The signal or exit code it ended with. */
  exited: Promise<NodeJS.Signals | number>;
  /** Everything it wrote so far (pino lines). */
  output(): string;
};

const root = path.resolve(import.meta.dirname, '../../..');

/** A temporary DATA_DIR the embedded database's own user can enter (tests may run as root). */
export function tempDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * Starts `main.ts` and resolves once it listens. `env` adds to (and may override) a quiet
 * test environment: no web build, feeds on a closed port, PUBLIC_URL the tests' ORIGIN (so
 * their `Origin` header and sockets are the app's own).
 */
export async function startServerProcess(
  env: Record<string, string>,
  entry = 'apps/server/src/main.ts',
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: ORIGIN,
      PRICE_FEED_URL: 'http://127.0.0.1:9/ticker',
      FX_FEED_URL: 'http://127.0.0.1:9/fx',
      WEB_DIST_DIR: path.join(os.tmpdir(), 'coffer-no-web-build'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<NodeJS.Signals | number>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1)),
  );
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const lines = child.stdout ? readline.createInterface({ input: child.stdout }) : null;
  await new Promise<void>((resolve, reject) => {
    lines?.on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('Coffer is running at')) resolve();
    });
    void exited.then((how) =>
      reject(new Error(`server exited (${how}) before listening\n${output}`)),
    );
  });
  return { child, url: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** Ends a server process still running (afterAll, whatever the test did). */
export async function killServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/**
 * The app in-process on another server's database, with that server's secret key: users,
 * sessions, backup codes and money made through it are valid on the server process too,
 * and the money helpers work on it as on `createTestApp`'s.
 */
export async function testAppOn(databaseUrl: string, secretKeyHex: string): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-data-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN }), webDistDir: null };
  const pool = createPool(databaseUrl);
  const log = createLogger('silent');
  const services = createServices({
    config,
    pool,
    db: createDb(pool),
    secrets: createSecrets(Buffer.from(secretKeyHex, 'hex')),
    mailer: createMailer({ smtpUrl: null, from: 'Coffer <no-reply@coffer.test>', dataDir, log }),
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
    origin: ORIGIN,
    databaseUrl,
    mails: () =>
      fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .sort()
            .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
        : [],
    async close() {
      await app.close();
      await services.limiter.close();
      await pool.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh 256-bit secret key, as COFFER_SECRET_KEY takes it. */
export const newSecretKey = () => randomBytes(32).toString('hex');
