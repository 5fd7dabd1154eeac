import type { THistoryFilters, TTransactionsQuery, TTransactionsResponse } from '@coffer/shared';
import { trimDecimal, usdShown } from '../ledger';
import { csvLine } from './csv';
import {
  type HistoryScope,
  type Keyset,
  narrowed,
  historyRepository as repo,
} from './history.repository';
import { decodeCursor, encodeCursor } from './history-cursor';
import { type HistoryDeps, presentPage } from './history-present';

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

/** A decimal the amount columns could hold: a search that is one is compared with them. */
const DECIMAL = /^(?:\d{1,20}(?:\.\d{1,18})?|\.\d{1,18})$/;

/** `%text%` for ILIKE, the text's own `%`, `_` and `\` taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The repository's scope of a customer's filters, search and sort. */
function scopeOf(userId: string, filters: THistoryFilters): HistoryScope {
  const q = filters.q?.trim() ?? '';
  return {
    userId,
    type: filters.type ?? null,
    asset: filters.asset ?? null,
    status: filters.status ?? null,
    search: q ? { pattern: containsPattern(q), amount: DECIMAL.test(q) ? q : null } : null,
    sort: filters.sort,
  };
}

export function createHistoryService(deps: HistoryDeps) {
  return {
    /**
     * A page of the customer's own history in the order asked, after `cursor` or before
     * `before` (read backwards from it, then put back in order), and how many rows match.
     * Only a page reached by a cursor asks whether there is one on its other side; the
     * first page costs what it always did.
     */
    async list(userId: string, query: TTransactionsQuery): Promise<TTransactionsResponse> {
      const scope = scopeOf(userId, query);
      const desc = query.order === 'desc';
      const back = query.before !== undefined;
      const cursor = query.before ?? query.cursor;
      const from = cursor !== undefined ? decodeCursor(scope.sort, cursor) : null;
      // One row more than asked says whether another page follows in the reading direction.
      const [rows, counted] = await Promise.all([
        repo.page(deps.pool, scope, from, back ? !desc : desc, query.limit + 1),
        narrowed(scope) ? repo.count(deps.pool, scope) : null,
      ]);
      const more = rows.length > query.limit;
      const items = rows.slice(0, query.limit);
      if (back) items.reverse();
      const first = items[0];
      const last = items.at(-1);
      // The whole history's count rides on each row; a page past the end (an old cursor)
      // has no row to carry it, so asks for it.
      const total =
        counted ??
        (rows[0] !== undefined
          ? Number(rows[0].live_count ?? 0)
          : from
            ? await repo.count(deps.pool, scope)
            : 0);
      const key = (row: typeof first): Keyset | null =>
        row ? { key: row.sort_key, id: row.id } : null;
      const [onOtherSide, presented] = await Promise.all([
        // Reading forward, is there anything before the first row; backward, after the last?
        from ? beyond(scope, key(back ? last : first), back ? desc : !desc) : false,
        presentPage(deps, userId, items),
      ]);
      const cursorOf = (row: typeof first, exists: boolean) =>
        row && exists ? encodeCursor(scope.sort, row) : null;
      return {
        items: presented,
        nextCursor: cursorOf(last, back ? onOtherSide : more),
        prevCursor: cursorOf(first, back ? more : onOtherSide),
        total,
      };
    },

    /**
     * The customer's history as CSV lines, with the filters, search and sort of the page,
     * read in keyset batches so that 100,000 rows never sit in memory at once; the
     * consumer pulls the next batch when it is ready.
     */
    async *csv(userId: string, filters: THistoryFilters): AsyncGenerator<string> {
      const scope = scopeOf(userId, filters);
      const desc = filters.order === 'desc';
      yield csvLine(CSV_HEADER);
      let after: Keyset | null = null;
      for (;;) {
        const rows = await repo.exportBatch(deps.pool, scope, after, desc, EXPORT_BATCH);
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
        after = { key: last.sort_key, id: last.id };
      }
    },
  };

  /** Whether the scope has a row beyond `from` read that way; no row, no page there. */
  function beyond(scope: HistoryScope, from: Keyset | null, desc: boolean): Promise<boolean> {
    return from ? repo.any(deps.pool, scope, from, desc) : Promise.resolve(false);
  }
}

export type HistoryService = ReturnType<typeof createHistoryService>;
