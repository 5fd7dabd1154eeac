import type { TTransactionsResponse } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import { presentTransaction, trimDecimal, usdShown } from '../ledger';
import { csvLine } from './csv';
import { explorerLinkOf } from './explorer-link';
import { type KeyedRow, type Keyset, historyRepository as repo } from './history.repository';

const CURSOR = /^(-?\d{1,18}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/**
 * The microseconds a cursor may carry: 0001-01-01 to the end of 9999. Beyond them no row's
 * date can be (PostgreSQL's bigint and timestamp would refuse the value with an error), so
 * such a cursor is forged or corrupt, and refused before any query.
 */
const FIRST_US = -62_135_596_800_000_000n;
const LAST_US = 253_402_300_799_999_999n;
export const CURSOR_INVALID = 'This page link is no longer valid. Reload the history.';
const EXPORT_BATCH = 1000;

export const CSV_HEADER = [
  'Date',
  'Type',
  'Asset',
  'Amount',
  'Fee',
  'USD',
  // A bank payout's AUD amount and the rates it was converted at (decision 0010).
  'AUD',
  'USD per AUD',
  'Asset price (USD)',
  'Status',
  'Transaction hash',
  'Address',
  'Reason',
];

/** The cursor is opaque to clients: base64url of "microseconds:id" of the page's last row. */
function encodeCursor(row: KeyedRow): string {
  return Buffer.from(`${row.date_us}:${row.id}`).toString('base64url');
}

/** A cursor this service made, or a 400: never a value PostgreSQL would choke on. */
function decodeCursor(cursor: string): Keyset {
  // Buffer reads any text as base64url, skipping what is not; only canonical text is ours.
  const bytes = Buffer.from(cursor, 'base64url');
  const match = bytes.toString('base64url') === cursor ? CURSOR.exec(bytes.toString('utf8')) : null;
  const [, dateUs, id] = match ?? [];
  if (!dateUs || !id) throw new AppError('VALIDATION_FAILED', CURSOR_INVALID);
  const us = BigInt(dateUs);
  if (us < FIRST_US || us > LAST_US) throw new AppError('VALIDATION_FAILED', CURSOR_INVALID);
  return { dateUs: us.toString(), id };
}

export function createHistoryService(deps: {
  pool: pg.Pool;
  /** The app settings (the explorer link templates); the cached reader in production. */
  settings: { all(): Promise<Map<string, string>> };
}) {
  return {
    /** A page of the customer's own history, newest first, and how many rows there are. */
    async list(
      userId: string,
      query: { cursor?: string | undefined; limit: number },
    ): Promise<TTransactionsResponse> {
      const after = query.cursor ? decodeCursor(query.cursor) : null;
      // One row more than asked says whether another page follows. Each row carries the
      // count; a page past the end (an old cursor) has no row to carry it, so asks for it.
      const rows = await repo.page(deps.pool, userId, after, query.limit + 1);
      const total =
        rows[0] !== undefined
          ? Number(rows[0].live_count ?? 0)
          : after
            ? await repo.count(deps.pool, userId)
            : 0;
      const items = rows.slice(0, query.limit);
      const last = items.at(-1);
      const [confirming, sent, settings] = await Promise.all([
        repo.confirmingDeposits(
          deps.pool,
          items
            .filter((r) => r.transaction_type === 'deposit' && r.status === 'pending')
            .map((r) => r.id),
        ),
        repo.sentPayouts(
          deps.pool,
          items
            .filter((r) => r.transaction_type === 'withdrawal' && r.status === 'pending')
            .map((r) => r.id),
        ),
        deps.settings.all(),
      ]);
      return {
        items: items.map((row) => {
          const onChain = sent.get(row.id);
          // A withdrawal sent on chain shows its transaction while it confirms.
          const tx = onChain
            ? { ...presentTransaction(row), transactionHash: onChain.txHash }
            : presentTransaction(row);
          const chain =
            confirming.get(row.id) ??
            (onChain ? { current: onChain.current, required: onChain.required } : undefined);
          const explorerUrl = explorerLinkOf(settings, tx);
          return {
            ...tx,
            ...(chain ? { confirmations: chain } : {}),
            ...(explorerUrl ? { explorerUrl } : {}),
          };
        }),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
        total,
      };
    },

    /**
     * The customer's whole history as CSV lines, read in keyset batches so that 100,000
     * rows never sit in memory at once; the consumer pulls the next batch when it is ready.
     */
    async *csv(userId: string): AsyncGenerator<string> {
      yield csvLine(CSV_HEADER);
      let after: Keyset | null = null;
      for (;;) {
        const rows = await repo.exportBatch(deps.pool, userId, after, EXPORT_BATCH);
        let chunk = '';
        for (const row of rows) {
          chunk += csvLine([
            row.date,
            row.transaction_type,
            row.asset_id,
            trimDecimal(row.crypto_amount),
            trimDecimal(row.fee),
            usdShown(row),
            row.aud_amount,
            row.transaction_type === 'bank_transfer' && row.exchange_rate
              ? trimDecimal(row.exchange_rate)
              : null,
            row.price_usd ? trimDecimal(row.price_usd) : null,
            row.status,
            row.transaction_hash,
            row.withdrawal_address,
            row.reason,
          ]);
        }
        if (chunk) yield chunk;
        const last = rows.at(-1);
        if (rows.length < EXPORT_BATCH || !last) return;
        after = { dateUs: last.date_us, id: last.id };
      }
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
