import {
  ALL_ASSET_IDS,
  ASSETS,
  dayRangeBounds,
  type TAdminTransactionsResponse,
  type TPendingPayoutsQuery,
  type TPendingPayoutsResponse,
} from '@coffer/shared';
import { decodeKeyset, keysetPage } from '@server/db/keyset';
import {
  type ListFilters,
  type PendingFilters,
  adminTransactionsRepository as repo,
} from './admin-transactions.repository';
import {
  type AdminTransactionsContext,
  present,
  presentSummary,
  withPayoutStates,
} from './admin-transactions-context';
import { UUID } from './admin-transactions-rules';

/** `%text%` for ILIKE with the text's own wildcards taken literally. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Assets the search text names exactly: an id, a symbol or a name ('usdt', 'Bitcoin'). */
function assetsNamed(q: string): string[] {
  const wanted = q.toLowerCase();
  const crypto = ALL_ASSET_IDS.filter((id) => {
    const a = ASSETS[id];
    return [a.id, a.symbol, a.name].some((v) => v.toLowerCase() === wanted);
  });
  // Bank transfers are recorded in their fiat currency.
  const fiat = ['AUD', 'USD'].filter((c) => c.toLowerCase() === wanted);
  return [...crypto, ...fiat];
}

/**
 * The uuid range an id or an id prefix covers ('3f2a' is 3f2a0000-… to 3f2affff-…): the
 * primary key answers it. At least 4 hex digits, so a short word is not read as an id.
 */
function idRangeOf(q: string): { low: string; high: string } | null {
  if (UUID.test(q)) return { low: q.toLowerCase(), high: q.toLowerCase() };
  const hex = q.toLowerCase().replace(/-/g, '');
  if (!/^[0-9a-f]{4,31}$/.test(hex) || !/^[0-9a-f-]+$/i.test(q)) return null;
  const shape = (digits: string) =>
    `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
  return { low: shape(hex.padEnd(32, '0')), high: shape(hex.padEnd(32, 'f')) };
}

/** What the transactions screen filters by (and its export follows). */
export type ListFilterQuery = {
  q: string;
  status: string;
  type: string;
  currency: string;
  /** Calendar days in UTC, YYYY-MM-DD, or '' for an open end. */
  from: string;
  to: string;
};

/** The screen's filters, and the page it shows. */
export type ListQuery = ListFilterQuery & { page: number; pageSize: number };

/** The repository's filters for the screen's search text and choices. */
export function listFilters(query: ListFilterQuery): ListFilters {
  const q = query.q.trim();
  const { start, end } = dayRangeBounds(query);
  return {
    status: query.status === 'all' ? null : query.status,
    type: query.type === 'all' ? null : query.type,
    currency: query.currency === 'all' ? null : query.currency,
    userPattern: q === '' ? null : likePattern(q),
    assetIds: q === '' ? [] : assetsNamed(q),
    idRange: q === '' ? null : idRangeOf(q),
    start,
    end,
  };
}

/** A page of transactions matching the screen's search text and filters. */
export async function listTransactions(
  ctx: AdminTransactionsContext,
  query: ListQuery,
): Promise<TAdminTransactionsResponse> {
  const filters = listFilters(query);
  const offset = (query.page - 1) * query.pageSize;
  // One row more than the page says whether there is a next page, without counting
  // every matching row (a COUNT over a million rows would cost more than the page).
  const rows = await repo.listPage(ctx.pool, filters, offset, query.pageSize + 1);
  return {
    items: rows.slice(0, query.pageSize).map(presentSummary),
    page: query.page,
    pageSize: query.pageSize,
    hasMore: rows.length > query.pageSize,
  };
}

/** A search text that is an amount ("0.25", "1,500.00"), as a plain decimal, or null. */
function amountIn(q: string): string | null {
  const plain = q.replace(/,/g, '');
  return /^\d{1,30}(\.\d{1,30})?$/.test(plain) ? plain : null;
}

/**
 * A page of the payouts waiting for staff, oldest first unless the newest are asked for,
 * with how many match; the search takes the customer's e-mail, the destination address or
 * an exact amount.
 */
export async function pendingPayouts(
  ctx: AdminTransactionsContext,
  query: TPendingPayoutsQuery,
): Promise<TPendingPayoutsResponse> {
  const at = decodeKeyset(query.cursor);
  const q = query.q.trim();
  const filters: PendingFilters = {
    type: query.type === 'all' ? null : query.type,
    assetId: query.asset === 'all' ? null : query.asset,
    approval: query.approval === 'all' ? null : query.approval,
    pattern: q === '' ? null : likePattern(q),
    amount: amountIn(q),
  };
  const [rows, total] = await Promise.all([
    repo.pendingPage(ctx.pool, filters, { order: query.order, at, limit: query.limit }),
    repo.pendingCount(ctx.pool, filters),
  ]);
  const page = keysetPage(rows, query.limit, at);
  return {
    items: await withPayoutStates(
      ctx,
      page.rows.map((row) => present(ctx, row)),
    ),
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
    total,
  };
}
