import type { Column, Table } from 'drizzle-orm';

/**
 * Row types for raw statements, inferred from the schema in `./schema` rather than written
 * by hand (decision 0029): a raw `SELECT *` or `RETURNING *` through `pg` gives a row keyed
 * by column name (`user_id`, not Drizzle's `userId`) and valued as the driver parses it.
 *
 * The one difference from Drizzle's own value types: `bigint` and `bigserial` columns arrive
 * as strings (`client.ts` keeps int8 out of floats), as `numeric` ones do. Timestamps are
 * `Date`s, `jsonb` parsed, text enums their union, arrays arrays.
 */
type DriverValue<C extends Column> = C['_']['columnType'] extends
  | 'PgBigInt53'
  | 'PgBigInt64'
  | 'PgBigSerial53'
  | 'PgBigSerial64'
  ? string
  : C['_']['data'];

type Value<C extends Column> = C['_']['notNull'] extends true
  ? DriverValue<C>
  : DriverValue<C> | null;

/** A table's row as a raw statement returns it. */
export type RowOf<T extends Table> = {
  [K in keyof T['_']['columns'] as T['_']['columns'][K]['_']['name']]: Value<T['_']['columns'][K]>;
};

/** Some columns of a table's row, by their column names. */
export type ColumnsOf<T extends Table, K extends keyof RowOf<T>> = Pick<RowOf<T>, K>;
