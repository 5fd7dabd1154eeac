import { expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import { addDepositAddress, newBitcoinAddress } from './support/db';
import { type Account, createCustomer, expectDashboard, topBar } from './support/flows';
import { snap } from './support/shots';

// One customer for the whole file, credited once: the tests read, none of them moves money.
test.describe.configure({ mode: 'serial' });

let page: Page;
let account: Account;
let depositAddress: string;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  account = await createCustomer(page, 'balances');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());
  creditDeposit(account.email, 'ETH', '2', uniqueTxHash());
  depositAddress = newBitcoinAddress();
  await addDepositAddress(account.email, {
    symbol: 'BTC',
    network: 'bitcoin',
    address: depositAddress,
  });
});

test.afterAll(async () => {
  await page.context().close();
});

test('the dashboard values the balances at the feed prices, with the real 24 h change', async () => {
  await page.goto('/dashboard');
  await expectDashboard(page);
  const main = page.getByRole('main');

  // 0.5 BTC x $65,000 + 2 ETH x $3,000, in the top bar and on the portfolio card.
  await expect(topBar(page).getByRole('status', { name: 'Portfolio total' })).toHaveText(
    '$38,500.00',
  );
  await expect(main.getByRole('heading', { name: 'Total Portfolio Value' })).toBeVisible();
  await expect(main.getByText('$38,500.00', { exact: true })).toBeVisible();

  // The same balances at the prices of 24 h ago (BTC +2.50 %, ETH -1.25 %):
  // 0.5 x 65,000 / 1.025 + 2 x 3,000 / 0.9875 = $37,783.27, so the portfolio is up 1.90 %.
  await expect(main.getByText('+1.90%', { exact: true })).toBeVisible();
  await expect(main.getByText('in the last 24 h')).toBeVisible();
  await expect(main.getByText('+12.5%')).toHaveCount(0);

  // Four wallets, two of them funded, each with its USD value.
  await expect(main.getByText('4 assets', { exact: true })).toBeVisible();
  const bitcoin = main.getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(bitcoin).toContainText('0.50000000 BTC');
  await expect(bitcoin).toContainText('$32,500.00');
  const ether = main.getByRole('link', { name: /^Ethereum ETH/ });
  await expect(ether).toContainText('2.000000 ETH');
  await expect(ether).toContainText('$6,000.00');
  await expect(main.getByRole('link', { name: /^Tether/ })).toHaveCount(2);

  // The chart is drawn, and told to screen readers: up to today's $38,500.00.
  const chart = main.getByRole('figure', { name: /^Portfolio value from \$[\d,]+\.\d\d on / });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName(/ to \$38,500\.00 on .+\.$/);
  await expect(chart.locator('svg path').first()).toBeVisible();

  await expectAccessible(page);
  await snap(page, 'dashboard-with-balances');

  // A row opens its asset's page.
  await bitcoin.click();
  await expect(page).toHaveURL(/\/dashboard\/asset\/btc$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bitcoin' })).toBeVisible();
});

test('the Bitcoin page shows the price, the balance and the deposit address to copy or scan', async () => {
  await page.goto('/dashboard/asset/btc');
  await expect(page.getByRole('heading', { level: 1, name: 'Bitcoin' })).toBeVisible();
  const main = page.getByRole('main');

  await expect(main.getByText('$65,000.00', { exact: true })).toBeVisible();
  await expect(main.getByText(/^\+2\.50%\s*24 h$/)).toBeVisible();
  await expect(main.getByText('+1.73%')).toHaveCount(0);
  await expect(main.getByText('0.50000000 BTC', { exact: true })).toBeVisible();
  await expect(main.getByText('$32,500.00', { exact: true })).toBeVisible();

  // The address staff gave this customer.
  await expect(main.getByText(depositAddress, { exact: true })).toBeVisible();
  await expect(main.getByText('Minimum deposit: 0.001 BTC.')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'asset-detail-btc');

  // Copy Address puts it on the clipboard and says so for a moment.
  await main.getByRole('button', { name: 'Copy Address' }).click();
  await expect(main.getByRole('button', { name: 'Copied!' })).toBeVisible();
  await expect(page.getByText('Address copied!', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(depositAddress);
  await expect(main.getByRole('button', { name: 'Copy Address' })).toBeVisible();

  // The QR code of the same address, drawn in the page.
  await main.getByRole('button', { name: 'Show QR Code' }).click();
  const dialog = page.getByRole('dialog', { name: 'BTC deposit address' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByRole('img', { name: 'QR code of your BTC deposit address' }),
  ).toBeVisible();
  await expect(dialog.getByText(depositAddress, { exact: true })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'asset-detail-btc-qr');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the market overview lists the prices with their 24 h change', async () => {
  await page.goto('/dashboard');
  await expectDashboard(page);
  await page.getByRole('link', { name: 'Market prices' }).click();
  await expect(page).toHaveURL(/\/asset-selection$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Cryptocurrency Overview' }),
  ).toBeVisible();

  const main = page.getByRole('main');
  const btc = main.getByRole('link', { name: /^BTC Bitcoin/ });
  await expect(btc).toContainText('$65,000.00');
  await expect(btc.getByText('+2.50%')).toHaveClass(/text-success/);
  const eth = main.getByRole('link', { name: /^ETH Ethereum/ });
  await expect(eth).toContainText('$3,000.00');
  await expect(eth.getByText('-1.25%')).toHaveClass(/text-danger/);
  await expect(main.getByRole('link', { name: /^USDT Tether/ })).toHaveCount(2);
  await expect(main.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'asset-selection');

  await eth.click();
  await expect(page).toHaveURL(/\/dashboard\/asset\/eth$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ethereum' })).toBeVisible();
  await expect(page.getByRole('main').getByText('2.000000 ETH', { exact: true })).toBeVisible();
  // No ETH address was given to this customer, and no chain here gives one: staff add it
  // on request, from the Deposit page.
  await expect(
    page.getByText('No deposit address available. Please try refreshing or contact support.'),
  ).toBeVisible();
  await expect(page.getByText('Our team adds ETH addresses on request')).toBeVisible();
  await page.getByRole('link', { name: 'request one on the Deposit page' }).click();
  await expect(page).toHaveURL(/\/dashboard\/deposit$/);
  await expect(page.getByRole('button', { name: 'Request a ETH deposit address' })).toBeVisible();
});

test('an asset Coffer does not hold is not found', async () => {
  await page.goto('/dashboard/asset/doge');
  await expect(page.getByRole('heading', { level: 1, name: 'Asset not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  await expectAccessible(page);
});

/**
 * Answers the wallets and prices as the server does when its price feed is down: the last
 * live prices (`cached`, 12 minutes old) or, before the feed ever answered, the catalogue's.
 * The dashboard's one read carries both, as the separate answers other screens read do.
 */
async function pricesFrom(source: 'cached' | 'fallback'): Promise<void> {
  const updatedAt = source === 'cached' ? new Date(Date.now() - 12 * 60_000).toISOString() : null;
  const wallets = (json: object) => ({ ...json, priceSource: source });
  const prices = (json: object) => ({ ...json, source, updatedAt });
  await page.route('**/api/wallets', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: wallets(await response.json()) });
  });
  await page.route('**/api/prices', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: prices(await response.json()) });
  });
  await page.route('**/api/dashboard', async (route) => {
    const response = await route.fetch();
    const read = await response.json();
    await route.fulfill({
      response,
      json: { ...read, wallets: wallets(read.wallets), prices: prices(read.prices) },
    });
  });
}

test('prices that are not live are named for what they are: the last live ones, or the catalogue’s', async () => {
  await pricesFrom('cached');
  await page.goto('/dashboard');
  await expectDashboard(page);
  const main = page.getByRole('main');
  await expect(main.getByRole('status').filter({ hasText: 'price feed' })).toHaveText(
    'The price feed is not answering: values use the last live prices, from 12 minutes ago.',
  );
  await expect(main).not.toContainText('cached data');
  await snap(page, 'dashboard-prices-cached');

  await page.unrouteAll();
  await pricesFrom('fallback');
  await page.goto('/dashboard');
  await expectDashboard(page);
  await expect(main.getByRole('status').filter({ hasText: 'price feed' })).toHaveText(
    'The price feed has never been reached: values use catalogue prices, not market prices.',
  );
  // The market overview says the same.
  await page.goto('/asset-selection');
  await expect(main.getByRole('status').filter({ hasText: 'price feed' })).toHaveText(
    'The price feed has never been reached: values use catalogue prices, not market prices.',
  );
  await expectAccessible(page);
  await page.unrouteAll();
});
