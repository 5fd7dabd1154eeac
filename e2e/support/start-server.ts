import fs from 'node:fs';
import path from 'node:path';

// A fresh data directory for every run: a new database, outbox and secret key.
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data');
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn';
await import('../../apps/server/src/main');
