import { csvLine } from '../history';
import { trimDecimal } from '../ledger';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import type { AdminTransactionsContext } from './admin-transactions-context';
import { type ListFilterQuery, listFilters } from './list-transactions';

const EXPORT_BATCH = 500;

export const ADMIN_TRANSACTIONS_CSV_HEADER = [
  'Date (UTC)',
  'Id',
  'Customer e-mail',
  'Customer name',
  'Type',
  'Direction',
  'Asset',
  'Amount',
  'USD',
  'AUD',
  'Currency',
  'Status',
];

/**
 * Every transaction the screen's search and filters match, newest first, as CSV lines:
 * read in keyset batches from the list's own query, so a million rows never sit in memory
 * at once and each batch costs what the first page does. Cells are spreadsheet-safe (the
 * history export's writer).
 */
export async function* exportTransactions(
  ctx: AdminTransactionsContext,
  query: ListFilterQuery,
): AsyncGenerator<string> {
  yield csvLine(ADMIN_TRANSACTIONS_CSV_HEADER);
  const filters = listFilters(query);
  let after: { dateUs: string; id: string } | null = null;
  for (;;) {
    const rows = await repo.listPage(ctx.pool, { ...filters, after }, 0, EXPORT_BATCH);
    let chunk = '';
    for (const row of rows) {
      chunk += csvLine([
        row.transaction_date.toISOString(),
        row.id,
        row.email,
        row.full_name ?? row.username,
        row.transaction_type,
        row.direction,
        row.asset_id,
        trimDecimal(row.crypto_amount),
        row.usd_amount,
        row.aud_amount,
        row.currency,
        row.status,
      ]);
    }
    if (chunk) yield chunk;
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || !last) return;
    after = { dateUs: last.date_us, id: last.id };
  }
}
