import { expect, type Page, type Request, test, type WebSocketRoute } from '@playwright/test';
import { creditDeposit, uniqueTxHash } from './support/app';
import {
  createCustomer,
  expectDashboard,
  signOutFromTopBar,
  submitSignIn,
  verifyWithCode,
} from './support/flows';
import { snap } from './support/shots';

/** One request of the page, in milliseconds from the navigation's start. */
type Timed = { path: string; start: number; end: number | null };

/** Every request the page makes from now on, with when it started and ended. */
function recordRequests(page: Page) {
  const t0 = Date.now();
  const timed = new Map<Request, Timed>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    timed.set(request, { path: url.pathname + url.search, start: Date.now() - t0, end: null });
  });
  const done = (request: Request) => {
    const entry = timed.get(request);
    if (entry) entry.end = Date.now() - t0;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    all: () => [...timed.values()],
    /** API calls, the realtime socket left out (it is no request/answer). */
    api: () =>
      [...timed.values()].filter((r) => r.path.startsWith('/api/') && r.path !== '/api/realtime'),
  };
}

/** The waterfall as text: one line a request, its start and end. */
function waterfall(requests: Timed[]): string {
  return requests
    .map(
      (r) => `${String(r.start).padStart(6)} → ${String(r.end ?? '…').padStart(6)} ms  ${r.path}`,
    )
    .join('\n');
}

/** Waits for the socket's `ready`, the server's word that every change will be announced. */
async function socketReady(page: Page): Promise<void> {
  const ws = await page.waitForEvent('websocket', (w) => w.url().endsWith('/api/realtime'));
  await ws.waitForEvent('framereceived', (f) => String(f.payload).includes('"ready"'));
}

test('the dashboard loads with two API calls, its code and its data asked for together', async ({
  page: setupPage,
  browser,
}) => {
  const account = await createCustomer(setupPage, 'load');
  creditDeposit(account.email, 'ETH', '1.5', uniqueTxHash());
  // A browser that has never loaded the app, signed in: nothing comes from its cache.
  const context = await browser.newContext({
    storageState: await setupPage.context().storageState(),
    extraHTTPHeaders: { 'X-Forwarded-For': account.address },
  });
  const page = await context.newPage();

  const requests = recordRequests(page);
  await page.goto('/dashboard');
  await expectDashboard(page);
  const main = page.getByRole('main');
  // Everything the page shows has arrived: balances, the chart, the checklist and the board.
  await expect(main.getByRole('link', { name: /^Ethereum ETH/ })).toContainText('1.500000 ETH');
  await expect(main.getByRole('figure', { name: /^Portfolio value from / })).toBeVisible();
  await expect(main.getByRole('region', { name: 'Get started' })).toBeVisible();
  await expect(main.getByText('Wallet ETH balance')).toBeVisible();
  await page.waitForLoadState('networkidle');

  const all = requests.all();
  await test.info().attach('waterfall', { body: waterfall(all), contentType: 'text/plain' });
  console.log(`dashboard load waterfall:\n${waterfall(all)}`);

  expect(
    requests
      .api()
      .map((r) => r.path)
      .sort(),
  ).toEqual(['/api/dashboard', '/api/session']);

  // The read is on its way before the page's code has arrived, not after it.
  const read = all.find((r) => r.path === '/api/dashboard');
  const pageCode = all.find((r) => /\/assets\/dashboard-page-[\w-]+\.js$/.test(r.path));
  expect(read).toBeDefined();
  expect(pageCode?.end).not.toBeNull();
  expect(read?.start ?? Number.POSITIVE_INFINITY).toBeLessThan(pageCode?.end ?? 0);
  await snap(page, 'dashboard-one-read');
  await context.close();
});

test('nothing polls while the socket is live; polling resumes while it is down', async ({
  page,
}) => {
  // The socket goes through a route the test can cut: while `up`, a connection reaches the server.
  let up = true;
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/realtime$/, (ws) => {
    if (!up) {
      void ws.close({ code: 1011, reason: 'cut by the test' });
      return;
    }
    sockets.push(ws);
    ws.connectToServer();
  });
  await createCustomer(page, 'live');
  await page.goto('/dashboard');
  const ready = socketReady(page);
  await expectDashboard(page);
  await ready;
  await expect(page.getByRole('main').getByText('Wallet ETH balance')).toBeVisible();
  await page.waitForLoadState('networkidle');

  // Twenty seconds with the socket up: the staking board ticks, and no request is made.
  const requests = recordRequests(page);
  await page.waitForTimeout(20_000);
  expect(requests.api().map((r) => r.path)).toEqual([]);
  // The board kept ticking on its own all the while.
  await expect(page.getByRole('progressbar')).toBeVisible();

  // The socket drops and cannot come back: the board polls its figures again.
  up = false;
  for (const ws of sockets) await ws.close({ code: 1011, reason: 'cut by the test' });
  await page.waitForRequest((r) => new URL(r.url()).pathname === '/api/staking');
  await page.waitForRequest((r) => new URL(r.url()).pathname === '/api/staking');
  expect(requests.api().filter((r) => r.path === '/api/staking').length).toBeGreaterThanOrEqual(2);
});

test('signed out, the dashboard sends to sign-in, and after it shows with its one read', async ({
  page,
}) => {
  const account = await createCustomer(page, 'load-back');
  creditDeposit(account.email, 'ETH', '0.25', uniqueTxHash());
  await signOutFromTopBar(page);

  // Straight to /dashboard without a session: the read made at start is refused, the
  // session's answer sends to sign-in.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);
  const requests = recordRequests(page);
  await submitSignIn(page, account.email);
  await verifyWithCode(page, account.secret, account.lastCode);
  await expectDashboard(page);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: /^Ethereum ETH/ })).toContainText('0.250000 ETH');
  await expect(main.getByText('Wallet ETH balance')).toBeVisible();
  await page.waitForLoadState('networkidle');

  // The dashboard's data came in its one read, not from the screens' own endpoints.
  const reads = requests.api().map((r) => r.path);
  expect(reads).toContain('/api/dashboard');
  expect(reads.filter((p) => p === '/api/dashboard')).toHaveLength(1);
  for (const own of ['/api/wallets', '/api/staking', '/api/first-run', '/api/public/info'])
    expect(reads).not.toContain(own);
});
