import { parseArgs } from 'node:util';
import {
  AmountError,
  ASSETS,
  CUSTOMER_ASSET_IDS,
  formatAmount,
  passwordUserInputs,
  passwordWeakness,
  toMinor,
  ZAssetId,
  ZEmail,
  ZNewPassword,
} from '@coffer/shared';
import type { Services } from './app-services';
import { withTransaction } from './db/tx';
import { hashPassword } from './lib/password';
import { seedLoad } from './seed-load';

/** A refusal the operator can act on: printed as it is, without a stack trace. */
export class CliError extends Error {}

export type CliCommand = { usage: string; run(s: Services, args: string[]): Promise<string> };

/** The operator tasks of `npm run cli`, apart from the process around them so tests can run them. */
export const COMMANDS: Record<string, CliCommand> = {
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
