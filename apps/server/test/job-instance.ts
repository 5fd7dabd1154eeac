/**
 * A second instance for jobs-failover.test.ts and chain-failover.test.ts: the server's
 * services and timed jobs on the database in DATABASE_URL, without HTTP (with a chain
 * configured in its environment, that chain's watcher too). Its log (JSON lines on stdout)
 * says which job locks it takes; the tests kill it with SIGKILL.
 */
import { loadConfig } from '../src/config';
import { createLogger, openServices } from '../src/infra';
import { startJobs } from '../src/jobs';

const config = loadConfig();
const log = createLogger('info');
const services = await openServices(config, config.databaseUrl ?? '', log);
startJobs(services);
