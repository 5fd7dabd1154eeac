import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import { createSecrets, keyFingerprint, makeKeyCheck, verifyKeyCheck } from './crypto';
import { StartupError } from './startup-error';

/** The server key and where it came from (`COFFER_SECRET_KEY` or the key file's path). */
export type SecretKey = { key: Buffer; source: string };

const KEY_HEX = /^[0-9a-fA-F]{64}$/;

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, 'secret.key');
}

/**
 * The configured key: COFFER_SECRET_KEY when set, else DATA_DIR/secret.key when it exists,
 * else null (only a brand-new database may get a new key: checkSecretKey decides). A
 * malformed key stops here, before any database is started.
 */
export function readSecretKey(dataDir: string, keyHex: string | null): SecretKey | null {
  if (keyHex !== null) {
    if (!KEY_HEX.test(keyHex)) {
      throw new StartupError(
        `COFFER_SECRET_KEY must be 64 hexadecimal characters (32 bytes); it has ${keyHex.length} characters${/[^0-9a-fA-F]/.test(keyHex) ? ', some not hexadecimal' : ''}. Restore the key this installation was set up with.`,
      );
    }
    return { key: Buffer.from(keyHex, 'hex'), source: 'COFFER_SECRET_KEY' };
  }
  const file = keyFilePath(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StartupError(`The secret key file ${file} cannot be read: ${String(err)}`);
  }
  const hex = text.trim();
  if (!KEY_HEX.test(hex)) {
    throw new StartupError(
      `The secret key file ${file} is malformed: it must hold 64 hexadecimal characters. Restore it from your backup (or set COFFER_SECRET_KEY); Coffer does not replace a key.`,
    );
  }
  return { key: Buffer.from(hex, 'hex'), source: file };
}

/** One row: the check value only the database's key decrypts, and that key's fingerprint. */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS coffer_key_check (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  fingerprint text NOT NULL,
  check_value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

/** Serialises the check of instances (and the CLI) starting together on one database. */
const KEY_CHECK_LOCK = 7_130_001;

/**
 * Encrypted columns an installation from before the key check may hold, most telling
 * first: if one of them does not decrypt, the key is not this database's.
 */
const ENCRYPTED_SAMPLES = [
  { table: 'user_two_factor', column: 'secret_encrypted', what: 'a 2FA secret' },
  { table: 'user_seed_phrases', column: 'seed_phrase_encrypted', what: 'a recovery phrase' },
  { table: 'user_bank_details', column: 'account_number_encrypted', what: 'saved bank details' },
  { table: 'bank_transfers', column: 'account_number_encrypted', what: 'a bank transfer' },
  { table: 'outbox', column: 'payload_encrypted', what: 'a queued mail' },
] as const;

const RESTORE_HINT =
  'Restore that key (the file secret.key from a backup of DATA_DIR, or the COFFER_SECRET_KEY value) and start again; Coffer never makes a new key for a database that holds data.';

async function tableExists(client: pg.ClientBase, table: string): Promise<boolean> {
  const { rows } = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [
    `public.${table}`,
  ]);
  return rows[0]?.t != null;
}

/** An encrypted value from before the check existed, to try the key on; null if none. */
async function encryptedSample(
  client: pg.ClientBase,
): Promise<{ value: string; what: string } | null> {
  for (const s of ENCRYPTED_SAMPLES) {
    if (!(await tableExists(client, s.table))) continue;
    const { rows } = await client.query<{ v: string }>(
      `SELECT ${s.column} AS v FROM ${s.table} WHERE ${s.column} IS NOT NULL LIMIT 1`,
    );
    if (rows[0]) return { value: rows[0].v, what: s.what };
  }
  return null;
}

/** A key file for a brand-new installation; if another process wrote one first, theirs. */
function createKeyFile(dataDir: string): SecretKey {
  const file = keyFilePath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = readSecretKey(dataDir, null);
  if (!key) throw new StartupError(`The secret key file ${file} could not be written`);
  return key;
}

/**
 * Where an installation's data and key were looked for, in one line, for a command that
 * found none there (`npm run cli` other than `restore`: only they who set one up may create
 * a database or a key, so a command run without the server's environment changes nothing).
 */
export function noInstallationMessage(where: {
  dataDir: string;
  /** The external database's host and port (DATABASE_URL), or null for the embedded one. */
  database: string | null;
  key: SecretKey | null;
}): string {
  const data =
    where.database === null
      ? `DATA_DIR ${where.dataDir} holds no database (DATABASE_URL is not set)`
      : `the database at ${where.database} (DATABASE_URL) holds no Coffer data`;
  const key = where.key
    ? `the secret key would be ${where.key.source === 'COFFER_SECRET_KEY' ? 'COFFER_SECRET_KEY' : where.key.source}`
    : `no secret key either (COFFER_SECRET_KEY is not set, ${keyFilePath(where.dataDir)} does not exist)`;
  return `no Coffer installation here: ${data}, and ${key}. Run the command with the server's own DATA_DIR, DATABASE_URL and COFFER_SECRET_KEY; only npm start (or restore) sets up a new one. Nothing was created.`;
}

/**
 * Checks the key against the database before anything else uses either: run on
 * a connected database before its migrations, so a wrong key changes nothing.
 *
 * - The database has a key-check value: the key must decrypt it; missing or different, the
 *   start stops, naming the fingerprint of the key to restore.
 * - It has none but holds accounts (an installation from before the check): the key must
 *   decrypt one of its encrypted secrets, if it has any; then its check value is stored.
 * - It is new (no accounts): the configured key, or a key generated into DATA_DIR/secret.key
 *   when none is configured, becomes the database's key.
 */
export async function checkSecretKey(
  pool: pg.Pool,
  opts: {
    dataDir: string;
    key: SecretKey | null;
    log?: Logger;
    /**
     * What to do instead of setting up a new installation (the operator commands: only
     * `npm start` and `restore` may): called, and expected to throw, when the database is
     * empty or would need a new key.
     */
    onNewDatabase?: () => never;
  },
): Promise<Buffer> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [KEY_CHECK_LOCK]);
    const stored = (await tableExists(client, 'coffer_key_check'))
      ? (
          await client.query<{ fingerprint: string; check_value: string }>(
            'SELECT fingerprint, check_value FROM coffer_key_check WHERE id = 1',
          )
        ).rows[0]
      : undefined;
    let key = opts.key;
    const where = (k: SecretKey) =>
      k.source === 'COFFER_SECRET_KEY' ? 'COFFER_SECRET_KEY' : `the key file ${k.source}`;

    if (stored) {
      if (!key) {
        throw new StartupError(
          `No secret key: COFFER_SECRET_KEY is not set and ${keyFilePath(opts.dataDir)} does not exist, but this database's secrets are encrypted with the key of fingerprint ${stored.fingerprint}. ${RESTORE_HINT}`,
        );
      }
      if (!verifyKeyCheck(createSecrets(key.key), stored.check_value)) {
        throw new StartupError(
          `Wrong secret key: ${where(key)} holds the key of fingerprint ${keyFingerprint(key.key)}, but this database's secrets are encrypted with the key of fingerprint ${stored.fingerprint}. ${RESTORE_HINT}`,
        );
      }
      await client.query('COMMIT');
      opts.log?.info({ keyFingerprint: stored.fingerprint }, 'secret key checked');
      return key.key;
    }

    const hasAccounts =
      (await tableExists(client, 'users')) &&
      (await client.query('SELECT 1 FROM users LIMIT 1')).rowCount !== 0;
    if (hasAccounts) {
      if (!key) {
        throw new StartupError(
          `No secret key: COFFER_SECRET_KEY is not set and ${keyFilePath(opts.dataDir)} does not exist, but this database already holds accounts, whose secrets need the key it was used with. ${RESTORE_HINT}`,
        );
      }
      const sample = await encryptedSample(client);
      if (sample) {
        try {
          createSecrets(key.key).decrypt(sample.value);
        } catch {
          throw new StartupError(
            `Wrong secret key: ${where(key)} (fingerprint ${keyFingerprint(key.key)}) cannot decrypt ${sample.what} in this database, so it is not the key the database was used with. ${RESTORE_HINT}`,
          );
        }
      }
    } else {
      // An operator command may record the configured key for a migrated database, but makes
      // neither a key nor an installation out of an empty database.
      if (opts.onNewDatabase && (!key || !(await tableExists(client, 'users'))))
        opts.onNewDatabase();
      key ??= createKeyFile(opts.dataDir);
    }
    const fingerprint = keyFingerprint(key.key);
    await client.query(CREATE_TABLE);
    await client.query(
      'INSERT INTO coffer_key_check (id, fingerprint, check_value) VALUES (1, $1, $2)',
      [fingerprint, makeKeyCheck(createSecrets(key.key))],
    );
    await client.query('COMMIT');
    opts.log?.info(
      { keyFingerprint: fingerprint, source: key.source },
      'secret key recorded for this database',
    );
    return key.key;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
