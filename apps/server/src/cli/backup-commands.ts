import path from 'node:path';
import { createPool } from '../db/client';
import { BackupTargetError, createBackup, fingerprintOf } from '../lib/backup/backup';
import { BackupFormatError } from '../lib/backup/format';
import { restoreBackup } from '../lib/backup/restore';
import { createAuditLog } from '../modules/audit';
import { createLedger } from '../modules/ledger';
import {
  type BareCliCommand,
  type CliCommand,
  CliError,
  operatorPath,
  optionsOf,
} from './cli-support';

/** The version recorded in a backup (the server package's). */
const COFFER_VERSION = '0.0.0';

/** A backup refusal is the operator's to act on: no stack trace. */
async function asCliError<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof BackupTargetError || err instanceof BackupFormatError)
      throw new CliError(err.message);
    throw err;
  }
}

export const restore: BareCliCommand = {
  usage: 'restore FILE [--resend-pending-mail]   (into an empty DATA_DIR or DATABASE_URL)',
  async run({ config, databaseUrl }, args) {
    const { positionals, values } = optionsOf(args, {
      'resend-pending-mail': { type: 'boolean' },
    });
    const [file, ...more] = positionals;
    if (file === undefined || more.length > 0)
      throw new CliError('Name one backup file: restore FILE');
    const resendPendingMail = values['resend-pending-mail'] === true;
    const keyHere = config.secretKey ? fingerprintOf(config.secretKey.key) : null;
    const pool = createPool(databaseUrl);
    try {
      const started = Date.now();
      const result = await asCliError(() =>
        restoreBackup({
          file: operatorPath(file),
          pool,
          filesDir: path.join(config.dataDir, 'files'),
          keyHere,
          resendPendingMail,
        }),
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
      const mismatches = await createLedger().reconcile(pool);
      const audit = await createAuditLog().verify(pool);
      const { header } = result;
      const key = header.key;
      return [
        `Restored the backup of ${header.createdAt} (migration ${header.migration.tag}) in ${seconds} s: ${rows} rows in ${Object.keys(result.rows).length} tables, ${result.files} files; every checksum and row count matches.`,
        mismatches.length === 0
          ? 'Ledger reconciled: every wallet balances.'
          : `Ledger NOT reconciled: ${mismatches.length} wallets out of balance.`,
        audit.ok
          ? `Audit log intact: ${audit.rows} rows.`
          : `Audit log broken at row ${audit.firstBrokenId}: ${audit.reason}.`,
        keyHere === key.fingerprint
          ? `The secret key here (fingerprint ${key.fingerprint}) is the one the backup needs.`
          : `The data needs the secret key with fingerprint ${key.fingerprint} (it was in ${key.source}): put that key into ${path.join(config.dataDir, 'secret.key')} or COFFER_SECRET_KEY before starting Coffer.`,
        ...pendingMailLines(result.pendingMail, resendPendingMail),
      ].join('\n');
    } finally {
      await pool.end();
    }
  },
};

/** What a restore says about the mails that were waiting at the snapshot (nothing if none). */
function pendingMailLines(count: number, resent: boolean): string[] {
  if (count === 0) return [];
  const waiting = `${count} mails were waiting at the snapshot`;
  return [
    resent
      ? `${waiting}; they stay queued and go out when Coffer starts.`
      : `${waiting}; they were not re-sent, as they may have gone out already. To send them, restore into an empty database again with --resend-pending-mail.`,
  ];
}

export const backup: CliCommand = {
  usage: 'backup --out FILE',
  /**
   * A consistent online backup of the running database and the private files, with the
   * fingerprint of the key they need (lib/backup, decision 0016).
   */
  async run(s, args) {
    const { values } = optionsOf(args, { out: { type: 'string' } });
    if (!values.out) throw new CliError('Say where to write the backup: --out FILE');
    const started = Date.now();
    const result = await asCliError(() =>
      createBackup({
        pool: s.pool,
        key: s.config.secretKey,
        filesDir: path.join(s.config.dataDir, 'files'),
        out: operatorPath(values.out as string),
        cofferVersion: COFFER_VERSION,
      }),
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const tables = result.trailer.parts.filter((p) => p.part === 'table');
    const rows = tables.reduce((n, p) => n + (p.rows ?? 0), 0);
    const files = result.trailer.parts.length - tables.length;
    return [
      `Backup written to ${result.file} in ${seconds} s: ${rows} rows in ${tables.length} tables, ${files} files (migration ${result.header.migration.tag}).`,
      `Restoring it needs the secret key with fingerprint ${result.header.key.fingerprint}: keep that key (${result.header.key.source}) safe and apart from the backup.`,
    ].join('\n');
  },
};
