import path from 'node:path';

/** Everything the server reads from the environment (DESIGN.md "Configuration"). */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  publicUrl: string;
  smtpUrl: string | null;
  secretKeyHex: string | null;
  trustProxy: boolean;
  /** Where the built web app lives; null when the server only serves the API (tests). */
  webDistDir: string | null;
  logLevel: string;
  /** Exchange ticker (24 h statistics) queried as `?symbol=BTCUSDT` and `?symbol=ETHUSDT`. */
  priceFeedUrl: string;
  /** Latest exchange rates with AUD as the base; `rates.USD` is read. */
  fxFeedUrl: string;
  priceRefreshMs: number;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  }
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || null,
    secretKeyHex: env.COFFER_SECRET_KEY || null,
    trustProxy: env.TRUST_PROXY === 'true',
    webDistDir: env.WEB_DIST_DIR
      ? path.resolve(env.WEB_DIST_DIR)
      : path.resolve(import.meta.dirname, '../../web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    priceFeedUrl: env.PRICE_FEED_URL || 'https://api.binance.com/api/v3/ticker/24hr',
    fxFeedUrl: env.FX_FEED_URL || 'https://api.exchangerate-api.com/v4/latest/AUD',
    priceRefreshMs: Number(env.PRICE_REFRESH_MS ?? 30_000),
  };
}
