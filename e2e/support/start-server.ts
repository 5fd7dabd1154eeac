import fs from 'node:fs';
import path from 'node:path';
import { startFakeFeeds } from '@server-test/fake-feeds';

// A fresh data directory for every run: a new database, outbox and secret key.
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data');
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn';
// As behind one reverse proxy: a test may give its browser context an address of its own
// (`ownAddress`, the X-Forwarded-For such a proxy appends), so per-address limits such as
// sign-up mails do not add up over the suite.
process.env.TRUST_PROXY = '1';

// The real price and exchange-rate services are out of reach here: a local stand-in
// answers like them (BTC 65,000.00 +2.50 %, ETH 3,000.00 −1.25 %, 1 AUD = 0.6543 USD).
const feeds = await startFakeFeeds();
process.env.PRICE_FEED_URL = feeds.priceFeedUrl;
process.env.FX_FEED_URL = feeds.fxFeedUrl;
await import('@server/main');
