import {
  ADMIN_TX_MSG,
  ASSETS,
  assetById,
  formatAmount,
  mulPrice,
  normalizeBankReference,
  normalizeTxHash,
  parseAmount,
  type TAssetId,
  type TCreateWithdrawalRequest,
  type TTransaction,
  validateAddress,
  withoutStepUp,
  ZAssetId,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';
import {
  insufficientBalance,
  type Ledger,
  presentTransaction,
  requestHash,
  runOnce,
  trimDecimal,
} from '../ledger';
import type { MoneyControls } from '../money-controls';
import type { Outbox } from '../outbox';
import type { PriceService } from '../prices';
import type { SecurityHold } from '../security-hold';
import type { StepUp, StepUpSubject } from '../step-up';
import { withdrawalsRepository as repo } from './withdrawals.repository';

const CREATE_ROUTE = 'POST /api/withdrawals';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Deps = {
  pool: pg.Pool;
  ledger: Ledger;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  securityHold: Pick<SecurityHold, 'assertClear'>;
  stepUp: Pick<StepUp, 'confirm'>;
  publicUrl: string;
};

/** Parses the asset id the request schema already checked, as the catalogue's type. */
function assetOf(assetId: string): TAssetId {
  const parsed = ZAssetId.safeParse(assetId);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'Please select a cryptocurrency');
  return parsed.data;
}

/**
 * '0.5 BTC': a ledger row's amount, plus its fee when asked (what a hold was). Any
 * catalogue asset, since staff may have recorded the withdrawal in an admin-only one.
 */
function amountText(row: TransactionRow, column: 'crypto_amount' | 'fee', withFee = false): string {
  const asset = assetById(row.asset_id);
  if (!asset) return `${trimDecimal(row[column])} ${row.asset_id}`;
  const fee = withFee ? parseAmount(row.fee, asset.decimals) : 0n;
  const minor = parseAmount(row[column], asset.decimals) + fee;
  return `${formatAmount(minor, asset.decimals)} ${asset.symbol}`;
}

/**
 * What the staff screen adds to a completion or rejection, inside its database
 * transaction: a policy on the locked row (four-eyes) and the audit row, written last.
 */
export type StaffHooks = {
  guard?: (row: TransactionRow) => void;
  /** A check that reads the database on the locked row (the payout's way out on chain). */
  check?: (client: pg.PoolClient, row: TransactionRow) => Promise<void>;
  record?: (client: pg.PoolClient, before: TransactionRow, after: TransactionRow) => Promise<void>;
};

const isBank = (row: TransactionRow) => row.transaction_type === 'bank_transfer';

/** '250.50 AUD': a bank transfer's fiat amount. */
function fiatText(row: TransactionRow): string {
  const amount = row.currency === 'USD' ? row.usd_amount : (row.aud_amount ?? row.usd_amount);
  return `${amount ?? '0'} ${row.currency ?? 'AUD'}`;
}

/** 'Paid from 0.0123 ETH (1 AUD = 0.6543 USD, 1 ETH = 3200 USD)' for a funded bank payout. */
function fundingText(row: TransactionRow, verb: string): string[] {
  if (row.wallet_id === null) return [];
  const asset = assetById(row.asset_id);
  const rates =
    row.exchange_rate && row.price_usd
      ? ` (1 AUD = ${trimDecimal(row.exchange_rate)} USD, 1 ${asset?.symbol ?? row.asset_id} = ${trimDecimal(row.price_usd)} USD)`
      : '';
  return [`${verb} ${amountText(row, 'crypto_amount')}${rates}.`];
}

/**
 * The mail that tells the customer what staff did with their payout. A rejection reads
 * "rejected", with the reason, and says the money is back: it must not read as money that
 * left.
 */
function payoutMail(row: TransactionRow, publicUrl: string): { subject: string; text: string } {
  const history = `Your history: ${publicUrl}/dashboard/history`;
  const completed = row.status === 'completed';
  if (isBank(row)) {
    return completed
      ? {
          subject: 'Your bank transfer has been sent',
          text: [
            `Your bank transfer of ${fiatText(row)} has been sent.`,
            ...fundingText(row, 'Paid from your wallet:'),
            '',
            `Bank reference: ${row.transaction_hash ?? ''}`,
            '',
            history,
          ].join('\n'),
        }
      : {
          subject: 'Your bank transfer was rejected',
          text: [
            `Rejected: your bank transfer request of ${fiatText(row)} was not paid.`,
            '',
            `Reason: ${row.reason ?? ''}`,
            '',
            ...fundingText(
              row,
              'Nothing left your wallet: the amount held for it is available again,',
            ),
            history,
          ].join('\n'),
        };
  }
  const to = row.withdrawal_address ?? 'your address';
  return completed
    ? {
        subject: 'Your withdrawal has been sent',
        text: [
          `Your withdrawal of ${amountText(row, 'crypto_amount')} to ${to} has been sent.`,
          '',
          `Network fee: ${amountText(row, 'fee')}`,
          `Transaction hash: ${row.transaction_hash ?? ''}`,
          '',
          history,
        ].join('\n'),
      }
    : {
        subject: 'Your withdrawal was rejected',
        text: [
          `Rejected: your withdrawal request of ${amountText(row, 'crypto_amount')} to ${to} was not sent.`,
          '',
          `Reason: ${row.reason ?? ''}`,
          '',
          `Nothing left your wallet: the ${amountText(row, 'crypto_amount', true)} held for it (amount and network fee) is available again.`,
          history,
        ].join('\n'),
      };
}

export function createWithdrawalsService(deps: Deps) {
  /**
   * Queues the customer's mail about a payout in the transaction that changed it: it
   * leaves when that commits (the outbox delivers it, and retries), and never if it rolls back.
   */
  async function tell(client: pg.PoolClient, row: TransactionRow): Promise<void> {
    const to = await repo.emailOf(client, row.user_id);
    if (to) await deps.outbox.mail(client, { to, ...payoutMail(row, deps.publicUrl) });
  }

  /**
   * Locks a payout that staff may still act on: a crypto withdrawal or a bank transfer,
   * found and pending; then the caller's policy (four-eyes) judges the locked row.
   */
  async function lockPending(
    client: pg.PoolClient,
    id: string,
    guard?: StaffHooks['guard'],
  ): Promise<TransactionRow> {
    const row = UUID.test(id) ? await repo.lockWithdrawal(client, id) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
    guard?.(row);
    if (row.status === 'completed') {
      throw new AppError('CONFLICT', 'This withdrawal was already completed.');
    }
    if (row.status === 'failed')
      throw new AppError('CONFLICT', 'This withdrawal was already rejected.');
    return row;
  }

  return {
    /**
     * A customer's withdrawal request (product.md M6), checked in order
     * after the schema: settings, funds (amount + network fee against the available
     * balance), the address, the daily limit, and last the fresh second factor (step-up), so
     * a refused request never costs the customer a code. Then one ledger row, pending,
     * holding amount + fee, all in one database transaction with the customer and the wallet
     * locked; the code is used up only if that commits.
     */
    async request(
      s: StepUpSubject,
      body: TCreateWithdrawalRequest,
      idempotencyKey: string | undefined,
      who: Client,
    ): Promise<TTransaction> {
      const { userId } = s;
      // Read before the transaction: inside it, a second pool connection could wait on
      // connections that requests queued behind this customer's lock are holding.
      const settings = await deps.controls.current();
      // A retry of the same request carries a new code: the key stands for the rest.
      const hash = requestHash(CREATE_ROUTE, withoutStepUp(body));
      const answer = await withTransaction(deps.pool, (client) =>
        runOnce(client, { userId, key: idempotencyKey, hash }, async () => {
          deps.controls.assertCustomerPayoutsOpen(settings);
          await deps.securityHold.assertClear(client, userId);
          const asset = ASSETS[assetOf(body.assetId)];
          const amount = parseAmount(body.amount, asset.decimals);
          const fee = parseAmount(asset.networkFee, asset.decimals);

          await deps.controls.lockCustomer(client, userId);
          const wallet = await deps.ledger.lockWallet(client, userId, asset.id);
          if (amount + fee > wallet.available)
            throw insufficientBalance(asset.id, wallet.available);

          const address = validateAddress(asset.id, body.address);
          if (!address.ok) throw new AppError('VALIDATION_FAILED', address.message);

          const usdAmount = mulPrice(
            amount,
            asset.decimals,
            deps.prices.current().quotes[asset.id].priceUsd,
          );
          await deps.controls.assertWithinDailyLimit(client, settings, userId, usdAmount);
          await deps.stepUp.confirm(client, s, body.stepUp, who);

          const row = await deps.ledger.post(
            client,
            {
              userId,
              assetId: asset.id,
              type: 'withdrawal',
              direction: 'debit',
              amount,
              fee,
              status: 'pending',
              usdAmount,
              withdrawalAddress: address.address,
              memo: body.memo ? body.memo : null,
              createdBy: userId,
            },
            { wallet },
          );
          return { status: 200, body: presentTransaction(row) };
        }),
      );
      return answer.body;
    },

    /**
     * Staff paid the payout out: the hold becomes a debit and the reference is kept (the
     * chain transaction of a withdrawal, the bank's of a bank payout; the caller checked
     * its form). The customer's mail is queued in the same transaction.
     */
    async complete(
      transactionId: string,
      input: { transactionHash: string; processedBy: string } & StaffHooks,
    ): Promise<TTransaction> {
      const row = await withTransaction(deps.pool, async (client) => {
        const before = await lockPending(client, transactionId, input.guard);
        await input.check?.(client, before);
        // A customer's bank transfer from before payouts were funded holds nothing: paying
        // it out would be money leaving the books (decision 0010). It can only be rejected.
        if (isBank(before) && before.wallet_id === null && before.created_by === before.user_id) {
          throw new AppError('CONFLICT', ADMIN_TX_MSG.unfundedPayout);
        }
        // The proof that the money left, in its one form: a bank's reference for a bank
        // payout, the chain transaction of the asset's network for a withdrawal.
        if (input.transactionHash.trim() === '') {
          throw new AppError(
            'VALIDATION_FAILED',
            isBank(before) ? ADMIN_TX_MSG.bankReferenceRequired : ADMIN_TX_MSG.hashRequired,
          );
        }
        const reference = isBank(before)
          ? normalizeBankReference(input.transactionHash)
          : normalizeTxHash(before.asset_id, input.transactionHash);
        if (!reference.ok) throw new AppError('VALIDATION_FAILED', reference.message);
        const after = await deps.ledger.changeStatus(client, transactionId, 'completed', {
          transactionHash: reference.value,
          processedBy: input.processedBy,
        });
        await input.record?.(client, before, after);
        await tell(client, after);
        return after;
      });
      await deps.outbox.deliver();
      return presentTransaction(row);
    },

    /**
     * The chain proved a crypto payout (or staff's hash on a chain Coffer does not watch):
     * the hold becomes a debit and the customer's mail is queued, in the caller's
     * transaction. The payouts module decides when; this is the one way it is written.
     */
    async settle(
      client: pg.PoolClient,
      transactionId: string,
      input: { transactionHash: string; processedBy: string | null },
    ): Promise<TransactionRow> {
      const before = await lockPending(client, transactionId);
      const reference = normalizeTxHash(before.asset_id, input.transactionHash);
      if (!reference.ok) throw new AppError('VALIDATION_FAILED', reference.message);
      const after = await deps.ledger.changeStatus(client, transactionId, 'completed', {
        transactionHash: reference.value,
        processedBy: input.processedBy,
      });
      await tell(client, after);
      return after;
    },

    /** Staff refused the payout: the hold is released and the customer is told why. */
    async reject(
      transactionId: string,
      input: { reason: string; processedBy: string } & StaffHooks,
    ): Promise<TTransaction> {
      const reason = input.reason.trim();
      if (reason === '' || reason.length > 500) {
        throw new AppError('VALIDATION_FAILED', 'Enter the reason the customer will see.');
      }
      const row = await withTransaction(deps.pool, async (client) => {
        const before = await lockPending(client, transactionId, input.guard);
        await input.check?.(client, before);
        const after = await deps.ledger.changeStatus(client, transactionId, 'failed', {
          reason,
          processedBy: input.processedBy,
        });
        await input.record?.(client, before, after);
        await tell(client, after);
        return after;
      });
      await deps.outbox.deliver();
      return presentTransaction(row);
    },
  };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
