import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  AmountError,
  ASSETS,
  CUSTOMER_ASSET_IDS,
  formatAmount,
  passwordUserInputs,
  passwordWeakness,
  type TPayoutChain,
  toMinor,
  ZAssetId,
  ZEmail,
  ZNewPassword,
} from '@coffer/shared';
import type { Services } from './app-services';
import type { Config } from './config';
import { createPool } from './db/client';
import { withTransaction } from './db/tx';
import { AppError } from './lib/app-error';
import { BackupTargetError, createBackup, fingerprintOf } from './lib/backup/backup';
import { BackupFormatError } from './lib/backup/format';
import { restoreBackup } from './lib/backup/restore';
import { hashPassword } from './lib/password';
import { createAuditLog } from './modules/audit';
import { chainsOverview, formatChainsOverview } from './modules/chains/chain-status';
import { createLedger } from './modules/ledger';
import {
  DEFAULT_BITCOIN_ACCOUNT,
  readMnemonic,
  signPayoutFile,
} from './modules/payouts/offline-signer';
import { PayoutFileError } from './modules/payouts/payout-file-error';
import { seedLoad } from './seed-load';

// One source of truth for what `chain-status` prints: chain-status.ts (the Chains screen's too).
export { formatChainStatus } from './modules/chains/chain-status';

/** A refusal the operator can act on: printed as it is, without a stack trace. */
export class CliError extends Error {}

export type CliCommand = { usage: string; run(s: Services, args: string[]): Promise<string> };

/**
 * A command that must find the database as it is: no key check, migrations or default
 * settings first (a restore needs an empty database, and brings its own key).
 */
export type BareCliCommand = {
  usage: string;
  run(target: { config: Config; databaseUrl: string }, args: string[]): Promise<string>;
};

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

function optionsOf<T extends Record<string, { type: 'string' } | { type: 'boolean' }>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true });
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}

export const BARE_COMMANDS: Record<string, BareCliCommand> = {
  restore: {
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
            file,
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

/**
 * Prints what a command says and gives the exit code: a refusal (CliError) is printed on
 * its own and exits 1; anything else is a fault and is thrown.
 */
export async function printOutcome(run: () => Promise<string>): Promise<number> {
  try {
    console.log(await run());
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

/**
 * Commands that need neither the configuration nor a database nor a network: the offline
 * signer, run on a machine that holds the keys and nothing else.
 */
export type OfflineCliCommand = { usage: string; run(args: string[]): Promise<string> };

export const OFFLINE_COMMANDS: Record<string, OfflineCliCommand> = {
  'sign-payouts': {
    usage:
      "sign-payouts --in FILE --out FILE [--key MNEMONIC_FILE] [--account \"m/84'/1'/0'\"]   (mnemonic from --key or standard input)",
    async run(args) {
      const { values } = optionsOf(args, {
        in: { type: 'string' },
        out: { type: 'string' },
        key: { type: 'string' },
        account: { type: 'string' },
      });
      if (!values.in || !values.out)
        throw new CliError(
          'Name the unsigned file and where to write the signed one: --in FILE --out FILE',
        );
      const unsigned = fs.readFileSync(values.in, 'utf8');
      try {
        const signed = signPayoutFile(unsigned, readMnemonic(values.key), {
          bitcoinAccountPath: values.account ?? DEFAULT_BITCOIN_ACCOUNT.test,
        });
        fs.writeFileSync(values.out, signed.content, { mode: 0o600 });
        return signed.kind === 'bitcoin'
          ? `Signed the Bitcoin batch: ${values.out}`
          : `Signed ${signed.count} Ethereum transaction(s): ${values.out}`;
      } catch (err) {
        if (err instanceof PayoutFileError)
          throw new CliError(err.message.replace('The signed file was refused', 'Not signed'));
        throw new CliError(err instanceof Error ? err.message : String(err));
      }
    },
  },
};

/** A payouts refusal (an AppError) is the operator's to act on: printed on its own. */
async function asPayoutOutcome<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message);
    throw err;
  }
}

function chainOption(value: string | undefined): TPayoutChain {
  const chain = value === 'btc' ? 'bitcoin' : value === 'eth' ? 'ethereum' : null;
  if (!chain) throw new CliError('Say which chain: --chain btc or --chain eth');
  return chain;
}

/** The operator tasks of `npm run cli`, apart from the process around them so tests can run them. */
export const COMMANDS: Record<string, CliCommand> = {
  'payouts-build': {
    usage: 'payouts-build --chain btc|eth --out FILE',
    async run(s, args) {
      const { values } = optionsOf(args, { chain: { type: 'string' }, out: { type: 'string' } });
      const chain = chainOption(values.chain);
      if (!values.out) throw new CliError('Say where to write the unsigned file: --out FILE');
      const out = values.out;
      const { batch, file } = await asPayoutOutcome(() =>
        s.payouts.build({ id: null, ip: null }, chain),
      );
      fs.writeFileSync(out, file);
      const total = batch.payouts.length;
      return [
        `Built batch ${batch.id} (${chain}): ${total} payout(s), fee ${batch.fee ?? '?'}${batch.feeRate ? ` at ${batch.feeRate} sat/vB` : ''}.`,
        ...batch.payouts.map((p) => `  ${p.amount} ${p.assetId} to ${p.address}`),
        `Unsigned file: ${out}`,
      ].join('\n');
    },
  },

  'payouts-submit': {
    usage: 'payouts-submit --chain btc|eth --in FILE',
    async run(s, args) {
      const { values } = optionsOf(args, { chain: { type: 'string' }, in: { type: 'string' } });
      const chain = chainOption(values.chain);
      if (!values.in) throw new CliError('Name the signed file: --in FILE');
      const text = fs.readFileSync(values.in, 'utf8');
      const result = await asPayoutOutcome(() =>
        s.payouts.submit({ id: null, ip: null }, chain, text, null),
      );
      return [
        `Batch ${result.batch.id} is ${result.batch.state}.`,
        ...result.sent.map((h) => `  sent ${h}`),
        ...result.alreadySent.map((h) => `  already sent before (not sent again) ${h}`),
      ].join('\n');
    },
  },

  'create-admin': {
    usage: 'create-admin --email E --password P',
    async run(s, args) {
      const { values } = parseArgs({
        args,
        options: { email: { type: 'string' }, password: { type: 'string' } },
      });
      const email = ZEmail.safeParse(values.email ?? '');
      if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
      const password = ZNewPassword.safeParse(values.password ?? '');
      if (!password.success)
        throw new CliError(password.error.issues[0]?.message ?? 'Invalid password.');
      const weakness = await passwordWeakness(password.data, passwordUserInputs(email.data));
      if (weakness) throw new CliError(weakness);
      const created = await s.db.transaction(async (tx) => {
        const user = await s.users.create(
          { email: email.data, passwordHash: await hashPassword(password.data), verified: true },
          tx,
        );
        if (user) await s.users.makeAdmin(user.id, tx);
        return user;
      });
      if (!created) throw new CliError(`An account with the e-mail ${email.data} already exists.`);
      return `Admin ${email.data} created. Sign in at ${s.config.publicUrl}/auth and set up two-factor authentication.`;
    },
  },
  'credit-deposit': {
    usage: 'credit-deposit --email E --asset BTC|ETH|USDT-ERC20|USDT-TRC20 --amount A --tx-hash H',
    async run(s, args) {
      let values: { email?: string; asset?: string; amount?: string; 'tx-hash'?: string };
      try {
        ({ values } = parseArgs({
          args,
          options: {
            email: { type: 'string' },
            asset: { type: 'string' },
            amount: { type: 'string' },
            'tx-hash': { type: 'string' },
          },
        }));
      } catch (err) {
        // Node's own explanation (an unknown option, '--amount -1' for '--amount=-1').
        throw new CliError(err instanceof Error ? err.message : String(err));
      }
      const email = ZEmail.safeParse(values.email ?? '');
      if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
      const asset = ZAssetId.safeParse((values.asset ?? '').trim().toUpperCase());
      if (!asset.success) {
        throw new CliError(
          `Unknown asset "${values.asset ?? ''}". Use one of ${CUSTOMER_ASSET_IDS.join(', ')}.`,
        );
      }
      const { symbol, decimals } = ASSETS[asset.data];
      let amount: bigint;
      try {
        amount = toMinor(asset.data, values.amount ?? '');
      } catch (err) {
        if (err instanceof AmountError) throw new CliError(err.message);
        throw err;
      }
      if (amount === 0n) throw new CliError('Amount must be greater than 0');
      const hash = (values['tx-hash'] ?? '').trim();
      if (hash === '') throw new CliError('The chain transaction hash is required (--tx-hash).');
      // A fresh process has no live prices yet; the last stored ones value the deposit.
      if (s.prices.current().source === 'fallback') await s.prices.loadCached();

      const result = await s.deposits.credit({
        email: email.data,
        assetId: asset.data,
        amount,
        transactionHash: hash,
      });
      const shown = `${formatAmount(amount, decimals)} ${symbol}`;
      switch (result.outcome) {
        case 'unknown-user':
          throw new CliError(`No account with the e-mail ${email.data}.`);
        case 'invalid-hash':
          throw new CliError(`${result.message} Nothing changed.`);
        case 'hash-belongs-elsewhere':
          throw new CliError(
            `Chain transaction ${result.transactionHash} was already credited to ${asset.data} as another deposit (${result.transactionId}). Nothing changed.`,
          );
        case 'chain-watched':
          throw new CliError(
            `Chain transaction ${result.transactionHash} is watched on its chain (deposit ${result.status}): the watcher credits it once it is confirmed. Nothing changed.`,
          );
        case 'already-credited':
          return `Chain transaction ${result.transactionHash} was already credited: ${shown} to ${email.data}. Nothing changed. Balance: ${result.balance} ${symbol}.`;
        case 'credited':
          return `Credited ${shown} to ${email.data} (chain transaction ${result.transactionHash}). New balance: ${result.balance} ${symbol}.`;
      }
    },
  },
  'reset-admin-2fa': {
    usage: 'reset-admin-2fa --email E --reason R',
    /**
     * For an admin locked out of their second factor when no other admin can help: the
     * factor removed, every session ended, a security hold started (its mail tells the admin,
     * with a "This wasn't me" link), the security event and an audit row (its actor empty:
     * the operator at the server's console), all in the same transaction.
     */
    async run(s, args) {
      let values: { email?: string; reason?: string };
      try {
        ({ values } = parseArgs({
          args,
          options: { email: { type: 'string' }, reason: { type: 'string' } },
        }));
      } catch (err) {
        throw new CliError(err instanceof Error ? err.message : String(err));
      }
      const email = ZEmail.safeParse(values.email ?? '');
      if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
      const reason = (values.reason ?? '').trim();
      if (reason === '') throw new CliError('Say why (--reason): it goes to the audit log.');
      const user = await s.users.findByEmail(email.data);
      if (!user || !(await s.users.isAdmin(user.id))) {
        throw new CliError(`No admin with the e-mail ${email.data}. Nothing changed.`);
      }
      const ended = await withTransaction(s.pool, async (client) => {
        const sessionsEnded = await s.twoFactor.resetForOperator(client, user.id);
        await s.securityHold.start(client, {
          userId: user.id,
          email: user.email,
          event: 'operator-two-factor-reset',
          from: null,
        });
        await s.securityLog.record(client, { userId: user.id, kind: 'two-factor-reset-by-staff' });
        await s.audit.record(client, {
          actorId: null,
          action: 'admin.2fa.reset',
          targetType: 'user',
          targetId: user.id,
          targetUserId: user.id,
          before: { twoFactorEnabled: true },
          after: { twoFactorEnabled: false, sessionsEnded },
          reason,
          ip: null,
        });
        return sessionsEnded;
      });
      await s.outbox.deliver();
      return `Two-factor authentication of ${email.data} was reset and ${ended} session(s) ended; written to the audit log. They set up a new authenticator at their next sign-in.`;
    },
  },
  'audit-verify': {
    usage: 'audit-verify',
    async run(s, args) {
      try {
        parseArgs({ args, options: {} });
      } catch (err) {
        throw new CliError(err instanceof Error ? err.message : String(err));
      }
      const result = await s.audit.verify(s.pool);
      if (!result.ok) {
        throw new CliError(`Audit log broken at row ${result.firstBrokenId}: ${result.reason}.`);
      }
      return `Audit log intact: ${result.rows} rows.`;
    },
  },
  'chain-status': {
    usage: 'chain-status',
    /** Each configured chain's watcher: how far it is, whether its node answers, what waits. */
    async run(s, args) {
      try {
        parseArgs({ args, options: {} });
      } catch (err) {
        throw new CliError(err instanceof Error ? err.message : String(err));
      }
      return formatChainsOverview(await chainsOverview(s.pool, s.chainAdapters, s.config.chains));
    },
  },
  backup: {
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
          out: values.out as string,
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
  },
  'seed-load': {
    usage: 'seed-load [--customers 10000] [--transactions 1000000] [--heavy 100000]',
    async run(s, args) {
      const { values } = parseArgs({
        args,
        options: {
          customers: { type: 'string', default: '10000' },
          transactions: { type: 'string', default: '1000000' },
          heavy: { type: 'string', default: '100000' },
        },
      });
      const opts = {
        customers: Number(values.customers),
        transactions: Number(values.transactions),
        heavy: Number(values.heavy),
      };
      for (const [name, n] of Object.entries(opts)) {
        if (!Number.isInteger(n) || n < 2)
          throw new CliError(`--${name} must be a whole number of at least 2.`);
      }
      if (opts.heavy > opts.transactions)
        throw new CliError('--heavy cannot be more than --transactions.');
      return seedLoad(s.pool, opts);
    },
  },
};
