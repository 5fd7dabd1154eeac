import { isIP } from 'node:net';
import path from 'node:path';
import { defaultMailFrom, senderAddress } from './lib/mailer';
import { parseStorageUrl, type S3Location } from './lib/s3-file-store';
import { readSecretKey, type SecretKey } from './lib/secret-key';
import { StartupError } from './lib/startup-error';
import { type ChainConfigs, loadChainConfig } from './modules/chains/chain-config';

/** Everything the server reads from the environment (docs/architecture.md). */
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
  /**
   * TRUST_PROXY, as Fastify's `trustProxy` takes it: false (no proxy: the socket's address),
   * the number of proxies in front of Coffer, or the proxies' addresses and CIDR ranges. The
   * client's address is then the one the nearest untrusted hop was seen from, never the
   * leftmost X-Forwarded-For entry, which the client writes itself.
   */
  trustProxy: false | number | string[];
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
  /** The chains Coffer watches; a chain not configured is null. */
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
  const trustProxy = trustProxyOf(env.TRUST_PROXY);
  const warnings: string[] = [];
  if (publicUrl.startsWith('https:') && trustProxy === false) {
    warnings.push(
      `PUBLIC_URL is https but TRUST_PROXY is not set: Coffer serves plain HTTP, so cookies are Secure and HSTS is sent for a TLS proxy in front of it; set TRUST_PROXY=1 behind that proxy (client addresses are the proxy's otherwise), or use an http PUBLIC_URL without one.`,
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

/**
 * TRUST_PROXY: unset or `false`; a number of proxy hops (`1` for one reverse proxy); or the
 * proxies' addresses or CIDR ranges, comma-separated. `true` is refused: it would trust every
 * X-Forwarded-For entry, so the client's own leftmost entry would pass for its address and
 * every per-address limit could be dodged by writing a new one.
 */
function trustProxyOf(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') {
    throw new StartupError(
      'TRUST_PROXY=true would take client addresses from X-Forwarded-For as the client wrote them; give the number of proxies in front of Coffer instead (TRUST_PROXY=1 for one reverse proxy), or their addresses',
    );
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops >= 1 && hops <= 10) return hops;
  } else {
    const list = v.split(',').map((a) => a.trim());
    const bad = list.find((a) => !isAddressOrRange(a));
    if (bad === undefined) return list;
  }
  throw new StartupError(
    `TRUST_PROXY must be false, the number of proxies in front of Coffer (1 to 10), or their addresses or CIDR ranges separated by commas (or loopback, linklocal, uniquelocal), got "${value}"`,
  );
}

/** `10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`, or a named range Fastify knows (`loopback`…). */
function isAddressOrRange(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address = '', bits, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
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
