import path from 'node:path';
import { defaultMailFrom, senderAddress } from './lib/mailer';
import { parseStorageUrl, type S3Location } from './lib/s3-file-store';
import { readSecretKey, type SecretKey } from './lib/secret-key';
import { StartupError } from './lib/startup-error';
import { type ChainConfigs, loadChainConfig } from './modules/chains/chain-config';

/** Everything the server reads from the environment (DESIGN.md "Configuration"). */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  publicUrl: string;
  smtpUrl: string | null;
  /** The sender of every mail (MAIL_FROM). */
  mailFrom: string;
  /** An S3-compatible bucket for private files (STORAGE_URL); null: the database keeps them. */
  storage: S3Location | null;
  /**
   * COFFER_SECRET_KEY, else DATA_DIR/secret.key; null when neither exists (a brand-new
   * installation: checkSecretKey then generates the file). Malformed, loading fails.
   */
  secretKey: SecretKey | null;
  trustProxy: boolean;
  /** Where the built web app lives; null when the server only serves the API (tests). */
  webDistDir: string | null;
  logLevel: string;
  /** Exchange ticker (24 h statistics) queried as `?symbol=BTCUSDT` and `?symbol=ETHUSDT`. */
  priceFeedUrl: string;
  /** Latest exchange rates with AUD as the base; `rates.USD` is read. */
  fxFeedUrl: string;
  priceRefreshMs: number;
  /** METRICS_TOKEN: the bearer token that reads /metrics; unset, only this machine may. */
  metricsToken: string | null;
  /** The chains Coffer watches (issue 14); a chain not configured is null. */
  chains: ChainConfigs;
  /** Settings that work but are probably not what the operator meant, one line each. */
  warnings: string[];
};

/** MAIL_FROM, checked: 'Name <address>' or an address; unset, no-reply at PUBLIC_URL's host. */
function mailFromOf(value: string | undefined, publicUrl: string): string {
  if (!value) return defaultMailFrom(publicUrl);
  if (senderAddress(value) === null) {
    throw new Error(`MAIL_FROM must be an address or "Name <address>", got "${value}"`);
  }
  return value.trim();
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = portOf(env.PORT);
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const publicUrl = publicUrlOf(env.PUBLIC_URL, port);
  const trustProxy = env.TRUST_PROXY === 'true';
  const warnings: string[] = [];
  if (publicUrl.startsWith('https:') && !trustProxy) {
    warnings.push(
      `PUBLIC_URL is https but TRUST_PROXY is not "true": Coffer serves plain HTTP, so cookies are Secure and HSTS is sent for a TLS proxy in front of it; set TRUST_PROXY=true behind that proxy (client addresses are the proxy's otherwise), or use an http PUBLIC_URL without one.`,
    );
  }
  const chains = loadChainConfig(env);
  warnings.push(...chains.warnings);
  return {
    port,
    // Loopback unless told otherwise: a fresh install is not on the network before its
    // operator decides so (a reverse proxy on the same machine, or HOST=0.0.0.0).
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    publicUrl,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: mailFromOf(env.MAIL_FROM, publicUrl),
    storage: env.STORAGE_URL ? parseStorageUrl(env.STORAGE_URL) : null,
    secretKey: readSecretKey(dataDir, env.COFFER_SECRET_KEY || null),
    trustProxy,
    webDistDir: env.WEB_DIST_DIR
      ? path.resolve(env.WEB_DIST_DIR)
      : path.resolve(import.meta.dirname, '../../web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    priceFeedUrl: env.PRICE_FEED_URL || 'https://api.binance.com/api/v3/ticker/24hr',
    fxFeedUrl: env.FX_FEED_URL || 'https://api.exchangerate-api.com/v4/latest/AUD',
    priceRefreshMs: Number(env.PRICE_REFRESH_MS ?? 30_000),
    metricsToken: env.METRICS_TOKEN || null,
    chains,
    warnings,
  };
}

function portOf(value: string | undefined): number {
  const port = /^\d{1,5}$/.test(value ?? '3000') ? Number(value ?? 3000) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw new StartupError(`PORT must be a whole number from 1 to 65535, got "${value}"`);
  }
  return port;
}

function publicUrlOf(value: string | undefined, port: number): string {
  const url = (value || `http://localhost:${port}`).replace(/\/+$/, '');
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new StartupError(
      `PUBLIC_URL must be the http:// or https:// address people open Coffer at, got "${value}"`,
    );
  }
  return url;
}

/**
 * loadConfig for the server and the CLI: a setting that stops the start is printed as one
 * line (no stack trace) and the process exits 1; warnings are printed and the start goes on.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    const config = loadConfig(env);
    for (const warning of config.warnings) console.error(`Warning: ${warning}`);
    return config;
  } catch (err) {
    // Everything loadConfig throws is about a setting the operator gave.
    console.error(`Coffer cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
