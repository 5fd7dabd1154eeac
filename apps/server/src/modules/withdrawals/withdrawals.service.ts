import {
  ASSETS,
  assetById,
  formatAmount,
  mulPrice,
  parseAmount,
  type TAssetId,
  type TCreateWithdrawalRequest,
  type TTransaction,
  validateAddress,
  ZAssetId,
} from '@coffer/shared';
import type pg from 'pg';
import type { Logger } from 'pino';
import { withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../../lib/mailer';
import type { TransactionRow } from '../ledger';
import {
  insufficientBalance,
  type Ledger,
  presentTransaction,
  requestHash,
  runOnce,
  trimDecimal,
} from '../ledger';
import type { MoneyControls } from '../money-controls/money-controls.service';
import type { PriceService } from '../prices/price-book';
import { withdrawalsRepository as repo } from './withdrawals.repository';

const CREATE_ROUTE = 'POST /api/withdrawals';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Deps = {
  pool: pg.Pool;
  ledger: Ledger;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
  mailer: Mailer;
  log: Logger;
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
  record?: (client: pg.PoolClient, before: TransactionRow, after: TransactionRow) => Promise<void>;
};

const isBank = (row: TransactionRow) => row.transaction_type === 'bank_transfer';

/** 'A$1,250.00' style text of a bank transfer's fiat amount. */
function fiatText(row: TransactionRow): string {
  const amount = row.currency === 'USD' ? row.usd_amount : (row.aud_amount ?? row.usd_amount);
  return `${amount ?? '0'} ${row.currency ?? 'AUD'}`;
}

export function createWithdrawalsService(deps: Deps) {
  /** Mail after the commit: the money has moved either way, so a mail failure is only logged. */
  async function tell(row: TransactionRow, subject: string, text: string): Promise<void> {
    try {
      const to = await repo.emailOf(deps.pool, row.user_id);
      if (to) await deps.mailer.send({ to, subject, text });
    } catch (err) {
      deps.log.warn({ err, transactionId: row.id }, 'withdrawal mail failed');
    }
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
     * A customer's withdrawal request (DEVIATIONS M6), checked in customer.md §5's order
     * after the schema: settings, funds (amount + network fee against the available
     * balance), the address, the daily limit. Then one ledger row, pending, holding amount +
     * fee, all in one database transaction with the customer and the wallet locked.
     */
    async request(
      userId: string,
      body: TCreateWithdrawalRequest,
      idempotencyKey: string | undefined,
    ): Promise<TTransaction> {
      // Read before the transaction: inside it, a second pool connection could wait on
      // connections that requests queued behind this customer's lock are holding.
      const settings = await deps.controls.current();
      const hash = requestHash(CREATE_ROUTE, body);
      const answer = await withTransaction(deps.pool, (client) =>
        runOnce(client, { userId, key: idempotencyKey, hash }, async () => {
          deps.controls.assertCustomerPayoutsOpen(settings);
          const asset = ASSETS[assetOf(body.assetId)];
          const amount = parseAmount(body.amount, asset.decimals);
          const fee = parseAmount(asset.networkFee, asset.decimals);

          await deps.controls.lockCustomer(client, userId);
          const wallet = await repo.lockWallet(client, userId, asset.id);
          const available = wallet
            ? parseAmount(wallet.balance, asset.decimals) - parseAmount(wallet.held, asset.decimals)
            : 0n;
          if (amount + fee > available) throw insufficientBalance(asset.id, available);

          const address = validateAddress(asset.id, body.address);
          if (!address.ok) throw new AppError('VALIDATION_FAILED', address.message);

          const usdAmount = mulPrice(
            amount,
            asset.decimals,
            deps.prices.current().quotes[asset.id].priceUsd,
          );
          await deps.controls.assertWithinDailyLimit(client, settings, userId, usdAmount);

          const row = await deps.ledger.post(client, {
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
          });
          return { status: 200, body: presentTransaction(row) };
        }),
      );
      return answer.body;
    },

    /**
     * Staff paid the withdrawal out: the hold becomes a debit and the chain hash is kept. A
     * bank transfer moves no crypto: it is marked completed with the bank's reference.
     */
    async complete(
      transactionId: string,
      input: { transactionHash: string; processedBy: string } & StaffHooks,
    ): Promise<TTransaction> {
      const transactionHash = input.transactionHash.trim();
      if (transactionHash.length > 200) {
        throw new AppError('VALIDATION_FAILED', 'Enter the transaction hash of the payout.');
      }
      const row = await withTransaction(deps.pool, async (client) => {
        const before = await lockPending(client, transactionId, input.guard);
        if (transactionHash === '') {
          throw new AppError(
            'VALIDATION_FAILED',
            isBank(before)
              ? 'Enter the bank reference of the payout.'
              : 'Enter the transaction hash of the payout.',
          );
        }
        const after = await deps.ledger.changeStatus(client, transactionId, 'completed', {
          transactionHash,
          processedBy: input.processedBy,
        });
        await input.record?.(client, before, after);
        return after;
      });
      if (isBank(row)) {
        await tell(
          row,
          'Your bank transfer has been sent',
          [
            `Your bank transfer of ${fiatText(row)} has been sent.`,
            '',
            `Bank reference: ${transactionHash}`,
            '',
            `Your history: ${deps.publicUrl}/dashboard/history`,
          ].join('\n'),
        );
        return presentTransaction(row);
      }
      await tell(
        row,
        'Your withdrawal has been sent',
        [
          `Your withdrawal of ${amountText(row, 'crypto_amount')} to ${row.withdrawal_address ?? 'your address'} has been sent.`,
          '',
          `Network fee: ${amountText(row, 'fee')}`,
          `Transaction hash: ${transactionHash}`,
          '',
          `Your history: ${deps.publicUrl}/dashboard/history`,
        ].join('\n'),
      );
      return presentTransaction(row);
    },

    /** Staff refused the withdrawal: the hold is released and the customer sees why. */
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
        const after = await deps.ledger.changeStatus(client, transactionId, 'failed', {
          reason,
          processedBy: input.processedBy,
        });
        await input.record?.(client, before, after);
        return after;
      });
      if (isBank(row)) {
        await tell(
          row,
          'Your bank transfer was not processed',
          [
            `Your bank transfer request of ${fiatText(row)} was rejected.`,
            '',
            `Reason: ${reason}`,
            '',
            `Your history: ${deps.publicUrl}/dashboard/history`,
          ].join('\n'),
        );
        return presentTransaction(row);
      }
      await tell(
        row,
        'Your withdrawal was not processed',
        [
          `Your withdrawal request of ${amountText(row, 'crypto_amount')} to ${row.withdrawal_address ?? 'your address'} was rejected.`,
          '',
          `Reason: ${reason}`,
          '',
          `The ${amountText(row, 'crypto_amount', true)} held for it (amount and network fee) is available in your wallet again.`,
          `Your history: ${deps.publicUrl}/dashboard/history`,
        ].join('\n'),
      );
      return presentTransaction(row);
    },
  };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
