import { QUEUE_CURSOR_INVALID, type TQueueOrder } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';

/**
 * Keyset pages over a (timestamp, id) order, in either direction, for the back office's
 * queues. A page starts strictly after (or ends strictly before) the row a cursor names, so
 * rows with the same timestamp are told apart by id: none shows twice or is skipped, however
 * many share a microsecond, and page 500 costs what page 1 does.
 *
 * The cursor is opaque to clients: base64url of "a|b:microseconds:id", `a` for the page
 * after that row, `b` for the page before it. Timestamps keep microseconds and a JavaScript
 * Date only milliseconds, so the position travels as an integer count of microseconds.
 */

/** Where a page starts, decoded. */
export type Keyset = { dir: 'after' | 'before'; us: string; id: string };

/** A row as a keyset page reads it: its id and its timestamp in microseconds. */
export type KeyedRow = { id: string; key_us: string };

const CURSOR =
  /^([ab]):(-?\d{1,18}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** 0001-01-01 to the end of 9999: no row's timestamp lies outside, PostgreSQL refuses it. */
const FIRST_US = -62_135_596_800_000_000n;
const LAST_US = 253_402_300_799_999_999n;

/**
 * The text inside a cursor, or '' when it is not canonical base64url: Buffer reads any text
 * as base64url, skipping what is not, and only canonical text is one this server made.
 */
export function cursorText(cursor: string): string {
  const bytes = Buffer.from(cursor, 'base64url');
  return bytes.toString('base64url') === cursor ? bytes.toString('utf8') : '';
}

/** Whether a cursor's microseconds could be a row's timestamp (see FIRST_US and LAST_US). */
export function isRowMicroseconds(us: bigint): boolean {
  return us >= FIRST_US && us <= LAST_US;
}

function encode(dir: 'a' | 'b', row: KeyedRow): string {
  return Buffer.from(`${dir}:${row.key_us}:${row.id}`).toString('base64url');
}

/** A cursor this server made, or a 400: never a value PostgreSQL would choke on. */
export function decodeKeyset(cursor: string | undefined): Keyset | null {
  if (cursor === undefined || cursor === '') return null;
  const [, dir, us, id] = CURSOR.exec(cursorText(cursor)) ?? [];
  if (!dir || !us || !id) throw new AppError('VALIDATION_FAILED', QUEUE_CURSOR_INVALID);
  const at = BigInt(us);
  if (!isRowMicroseconds(at)) throw new AppError('VALIDATION_FAILED', QUEUE_CURSOR_INVALID);
  return { dir: dir === 'a' ? 'after' : 'before', us: at.toString(), id };
}

/**
 * The SQL a keyset page needs, for a repository to put in its statement: the condition on
 * (column, id) from the cursor (with its two values appended to `params`), the ORDER BY of
 * the scan, and the microseconds column to select as `key_us`. A page before a cursor is
 * read backwards from it and turned round by `keysetPage`.
 */
export function keysetSql(
  column: string,
  idColumn: string,
  order: TQueueOrder,
  at: Keyset | null,
  params: unknown[],
): { where: string; orderBy: string; keyUs: string } {
  const forward = at === null || at.dir === 'after';
  const ascending = (order === 'oldest') === forward;
  const dir = ascending ? 'ASC' : 'DESC';
  let where = 'TRUE';
  if (at) {
    params.push(at.us, at.id);
    const us = `$${params.length - 1}::bigint`;
    const id = `$${params.length}::uuid`;
    where = `(${column}, ${idColumn}) ${ascending ? '>' : '<'} ('epoch'::timestamptz + ${us} * interval '1 microsecond', ${id})`;
  }
  return {
    where,
    orderBy: `ORDER BY ${column} ${dir}, ${idColumn} ${dir}`,
    keyUs: `(extract(epoch FROM ${column}) * 1000000)::bigint::text`,
  };
}

/**
 * A page from the rows a keyset statement read (at most `limit` + 1, in scan order): the
 * rows in the screen's order and the cursors of the pages on either side.
 */
export function keysetPage<R extends KeyedRow>(
  rows: R[],
  limit: number,
  at: Keyset | null,
): { rows: R[]; nextCursor: string | null; prevCursor: string | null } {
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (at?.dir === 'before') page.reverse();
  const first = page[0];
  const last = page.at(-1);
  const next = more && last ? encode('a', last) : null;
  if (at === null) return { rows: page, nextCursor: next, prevCursor: null };
  // A page that came out empty (its rows went meanwhile) has no row to lead on from: the
  // screen offers the first page instead.
  if (!first || !last) return { rows: page, nextCursor: null, prevCursor: null };
  if (at.dir === 'after') return { rows: page, nextCursor: next, prevCursor: encode('b', first) };
  return {
    rows: page,
    nextCursor: encode('a', last),
    prevCursor: more ? encode('b', first) : null,
  };
}
