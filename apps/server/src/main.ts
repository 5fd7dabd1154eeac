import path from 'node:path';
import { buildApp } from './app';
import { loadConfigOrExit } from './config';
import { startEmbeddedPostgres } from './db/embedded';
import { createLogger, openServices } from './infra';
import { startJobs } from './jobs';
import { claimDataDir } from './lib/instance-lock';
import { StartupError } from './lib/startup-error';

const config = loadConfigOrExit();
const log = createLogger(config.logLevel);

async function main() {
  const releaseDataDir = config.databaseUrl ? () => {} : claimDataDir(config.dataDir);
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        dir: config.dataDir,
        port: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
        log: (line) => log.debug({ postgres: line }),
      });
  const services = await openServices(config, config.databaseUrl ?? embedded?.url ?? '', log);
  await services.listener.start();
  const app = await buildApp(services);
  const jobs = startJobs(services);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping Coffer');
    jobs.stop();
    await app.close();
    await services.listener.stop();
    await services.limiter.close();
    await services.pool.end();
    await embedded?.stop();
    releaseDataDir();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

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
