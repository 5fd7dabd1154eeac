/**
 * What the benchmark measures: the calls Coffer's pages really make, each a scenario with
 * the signed-in account that makes it. To measure another call, add a line here; the bench
 * server records the statements of every path listed, so each gets its same-work yardstick.
 */

import type { HistoryShape } from './history-customers';

/**
 * The customer dashboard's calls on opening, as the web app makes them: the session and the
 * dashboard's one read (wallets, prices, staking, money status, the chart's default range,
 * the public figures and the first-run checklist in one answer).
 */
export const DASHBOARD_PAGE_CALLS = ['/api/session', '/api/dashboard'];

export type Who = 'customer' | 'heavy' | 'admin' | `${HistoryShape}-${number}`;

export type ScenarioSpec = {
  name: string;
  /** Requested in turn, round-robin over the connections. */
  paths: string[];
  who: Who;
  /** The back office is measured at the load a few operators make. */
  admin?: boolean;
  /** Targets checked against the same-work yardstick (printed beside the figures). */
  sameWorkTarget?: boolean;
  /** For the history-size table: the customer's ledger rows, their shape and the column. */
  size?: number;
  shape?: HistoryShape;
  column?: string;
};

export type ScenarioInputs = {
  /** The 100,000-row customer's first 41 history pages (cursors walked by the server). */
  heavyHistoryUrls: string[];
  /** One load customer's full name, for the admin search. */
  searchName: string;
  /** Per history size: a page half-way down that customer's list. */
  deepPages: Array<{ rows: number; shape: HistoryShape; url: string }>;
};

/** '100,000 rows', or '1,000,000 rows, busy' for the busy customer. */
export const sizeLabel = (rows: number, shape: HistoryShape) =>
  `${rows.toLocaleString('en')} rows${shape === 'busy' ? ', busy' : ''}`;

export const SIZE_COLUMNS = [
  'chart 24h',
  'chart 7d',
  'chart 30d',
  'chart 1y',
  'history p.1',
  'history deep',
];

export function scenarios(inputs: ScenarioInputs): ScenarioSpec[] {
  const list: ScenarioSpec[] = [
    { name: 'GET /api/session', paths: ['/api/session'], who: 'customer', sameWorkTarget: true },
    { name: 'GET /api/public/info', paths: ['/api/public/info'], who: 'customer' },
    { name: 'GET /api/wallets', paths: ['/api/wallets'], who: 'customer', sameWorkTarget: true },
    { name: 'GET /api/staking', paths: ['/api/staking'], who: 'customer', sameWorkTarget: true },
    {
      name: 'GET /api/portfolio/history?range=7d',
      paths: ['/api/portfolio/history?range=7d'],
      who: 'customer',
    },
    { name: 'GET /api/first-run', paths: ['/api/first-run'], who: 'customer' },
    {
      name: 'GET /api/dashboard',
      paths: ['/api/dashboard'],
      who: 'customer',
      sameWorkTarget: true,
    },
    {
      name: 'dashboard: the calls the page makes, in turn',
      paths: DASHBOARD_PAGE_CALLS,
      who: 'customer',
    },
    {
      name: 'history page, 100,000-row customer (41 pages)',
      paths: inputs.heavyHistoryUrls,
      who: 'heavy',
      sameWorkTarget: true,
    },
    {
      name: 'admin transactions, first page',
      paths: ['/api/admin/transactions?page=1'],
      who: 'admin',
      admin: true,
      sameWorkTarget: true,
    },
    {
      // The load data's withdrawals are failed ones: a filter that finds a full page.
      name: 'admin transactions, failed withdrawals',
      paths: ['/api/admin/transactions?page=1&status=failed&type=withdrawal'],
      who: 'admin',
      admin: true,
      sameWorkTarget: true,
    },
    {
      name: "admin transactions, a customer's name",
      paths: [`/api/admin/transactions?page=1&q=${encodeURIComponent(inputs.searchName)}`],
      who: 'admin',
      admin: true,
      sameWorkTarget: true,
    },
    {
      name: 'admin users, first page',
      paths: ['/api/admin/users'],
      who: 'admin',
      admin: true,
      sameWorkTarget: true,
    },
  ];
  for (const { rows, shape, url } of inputs.deepPages) {
    const who: Who = `${shape}-${rows}`;
    const [c24, c7, c30, c1y, first, deep] = SIZE_COLUMNS;
    const size = (column: string | undefined, path: string): ScenarioSpec => ({
      name: `${sizeLabel(rows, shape)}: ${column}`,
      paths: [path],
      who,
      size: rows,
      shape,
      column,
    });
    list.push(
      size(c24, '/api/portfolio/history?range=24h'),
      size(c7, '/api/portfolio/history?range=7d'),
      size(c30, '/api/portfolio/history?range=30d'),
      size(c1y, '/api/portfolio/history?range=1y'),
      size(first, '/api/transactions?limit=25'),
      size(deep, url),
    );
  }
  return list;
}
