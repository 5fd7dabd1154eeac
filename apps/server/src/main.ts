import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { buildApp } from './app';
import { loadConfigOrExit } from './config';
import { startEmbeddedPostgres, takeOffPackageSignalHooks } from './db/embedded';
import { createLogger, openServices } from './infra';
import { startJobs } from './jobs';
import { claimDataDir } from './lib/instance-lock';
import { StartupError } from './lib/startup-error';

const config = loadConfigOrExit();
const log = createLogger(config.logLevel);

/**
 * SHUTDOWN_TIMEOUT_S (default 25, under the 30 s most supervisors wait before SIGKILL): how
 * long a stop waits for the requests in flight before it closes their connections.
 */
function shutdownTimeoutMs(value = process.env.SHUTDOWN_TIMEOUT_S): number {
  const seconds = Number(value ?? 25);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new StartupError(`SHUTDOWN_TIMEOUT_S must be a number of seconds, got "${value}"`);
  }
  return seconds * 1000;
}

/** Resolves after `ms`, or when `work` settles, whichever comes first; never rejects. */
function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(
      () => {},
      (err) => log.warn({ err }, 'a step of the stop failed'),
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function main() {
  const graceMs = shutdownTimeoutMs();
  // Loaded with the database module whether or not the embedded database is used: the app's
  // own stop below is the only one, with an external database too.
  takeOffPackageSignalHooks();
  const releaseDataDir = config.databaseUrl ? () => {} : claimDataDir(config.dataDir);
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        dir: config.dataDir,
        port: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
        supervised: true,
        log: (line) => log.debug({ postgres: line }),
        alert: (line) => log.warn({ database: 'embedded' }, line),
      });
  const services = await openServices(config, config.databaseUrl ?? embedded?.url ?? '', log);
  await services.listener.start();
  const app = await buildApp(services);
  const jobs = startJobs(services);

  let stopping = false;
  // Keep-alive connections would hold the server's close open until their timeout (72 s):
  // once the stop begins, each answer closes its connection (and any gone idle is closed).
  const answering = new Set<ServerResponse>();
  app.server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    answering.add(res);
    if (stopping) res.setHeader('connection', 'close');
    res.once('close', () => {
      answering.delete(res);
      if (stopping) app.server.closeIdleConnections();
    });
  });
  /**
   * The graceful stop, in this order: stop listening (websockets get a "server restarting"
   * close frame, requests that arrive on open connections a 503), let the requests in flight
   * finish (at most SHUTDOWN_TIMEOUT_S), let running jobs and mail delivery finish, close
   * the database connections, and stop the embedded database last.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info(
      { signal, timeoutSeconds: graceMs / 1000, requestsInFlight: answering.size },
      'stopping Coffer',
    );
    for (const res of answering) if (!res.headersSent) res.setHeader('connection', 'close');
    // A step that hangs (a database that never answers) must not keep the process alive: a
    // supervisor would SIGKILL it anyway, without the embedded database's clean stop.
    setTimeout(() => {
      log.error('the stop did not finish in time; exiting');
      process.exit(1);
    }, graceMs + 30_000).unref();
    const cut = setTimeout(() => {
      log.warn('requests still running after SHUTDOWN_TIMEOUT_S: closing their connections');
      app.server.closeAllConnections();
    }, graceMs);
    await app.close();
    clearTimeout(cut);
    await bounded(jobs.stop(), 15_000);
    // Mail a request queued but did not wait for (a slow SMTP server) goes out now; whatever
    // cannot is retried by the next start's outbox job.
    await bounded(services.outbox.deliver({ wait: 'all' }), 10_000);
    await bounded(services.listener.stop(), 5_000);
    await bounded(services.limiter.close(), 5_000);
    await bounded(services.pool.end(), 5_000);
    await bounded(embedded?.stop() ?? Promise.resolve(), 20_000);
    releaseDataDir();
    log.info({ ms: Date.now() - started }, 'Coffer stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void stop(signal));
  }

  await app.listen({ port: config.port, host: config.host });
  log.info(
    {
      dataDir: path.relative(process.cwd(), config.dataDir) || '.',
      database: embedded ? 'embedded' : 'external',
    },
    'Coffer is running',
  );
  console.log(`\n  Coffer is running at ${config.publicUrl}\n`);
}

main().catch((err) => {
  // A key to restore or a setting to fix is one line for the operator, not a stack trace.
  if (err instanceof StartupError) console.error(`Coffer cannot start: ${err.message}`);
  else log.fatal({ err }, 'Coffer failed to start');
  process.exit(1);
});
