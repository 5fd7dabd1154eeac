import { createTestApp, type TestApp } from '@server-test/helpers';
import { getTableColumns, getTableName, isTable, type Table } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from './schema/index';

/**
 * `RowOf` (rows.ts) types a raw row by the schema's column names: this holds only while
 * every table's `SELECT *` answers with exactly those names, and int8 arrives as a string.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const exported: unknown[] = Object.values(schema);
const tables = exported.filter((value): value is Table => isTable(value));

describe('raw rows and the schema', () => {
  it('every table of the schema answers SELECT * with exactly its columns', async () => {
    expect(tables.length).toBeGreaterThan(20);
    for (const table of tables) {
      const { fields } = await t.services.pool.query(
        `SELECT * FROM "${getTableName(table)}" LIMIT 0`,
      );
      const declared = Object.values(getTableColumns(table)).map((c) => c.name);
      expect(fields.map((f) => f.name).sort(), getTableName(table)).toEqual(declared.sort());
    }
  });

  it('bigint and numeric values arrive as strings, timestamps as dates', async () => {
    const { rows } = await t.services.pool.query<{ big: unknown; num: unknown; at: unknown }>(
      `SELECT 9007199254740993::int8 AS big, 0.1::numeric AS num, now() AS at`,
    );
    expect(rows[0]).toMatchObject({ big: '9007199254740993', num: '0.1' });
    expect(rows[0]?.at).toBeInstanceOf(Date);
  });
});
