import { HISTORY_MSG } from '@coffer/shared';
import { cursorText, isRowMicroseconds } from '@server/db/keyset';
import { AppError } from '@server/lib/app-error';
import type { HistoryScope, Keyset } from './history.repository';

/**
 * The history's page cursors, opaque to clients: base64url of a row's position in the
 * order, "microseconds:id" by date (the form links made before the amount sort keep
 * working) and "a" + "amount:id" by amount.
 */

const UUID = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';
const BY_DATE = new RegExp(`^(-?\\d{1,18}):${UUID}$`);
/** What numeric(38, 18) holds: 20 whole digits and 18 decimals, never negative. */
const BY_AMOUNT = new RegExp(`^a(\\d{1,20}(?:\\.\\d{1,18})?):${UUID}$`);

export function encodeCursor(sort: HistoryScope['sort'], row: { sort_key: string; id: string }) {
  const text = sort === 'date' ? `${row.sort_key}:${row.id}` : `a${row.sort_key}:${row.id}`;
  return Buffer.from(text).toString('base64url');
}

/**
 * A cursor this service made for this sort, or a 400: never a value PostgreSQL would choke
 * on, and never a date read as an amount (a link whose sort was changed by hand).
 */
export function decodeCursor(sort: HistoryScope['sort'], cursor: string): Keyset {
  const [, key, id] = (sort === 'date' ? BY_DATE : BY_AMOUNT).exec(cursorText(cursor)) ?? [];
  if (!key || !id) throw new AppError('VALIDATION_FAILED', HISTORY_MSG.cursor);
  if (sort === 'date') {
    // A date beyond any row's is forged or corrupt: refused before PostgreSQL chokes on it.
    const us = BigInt(key);
    if (!isRowMicroseconds(us)) throw new AppError('VALIDATION_FAILED', HISTORY_MSG.cursor);
    return { key: us.toString(), id };
  }
  return { key, id };
}
