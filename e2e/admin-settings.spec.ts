import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, ownAddress, uniqueTxHash } from './support/app';
import {
  type Account,
  confirmStepUp,
  createCustomer,
  scrollToTop,
  sidebar,
  signInNewAdmin,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// One customer with BTC and one admin: what the admin switches in App Settings, the
// customer meets at once; the audit log shows each change. Serial: each step builds on
// the one before.
test.describe.configure({ mode: 'serial' });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const TURNED_OFF =
  'Withdrawals and bank transfers are turned off at the moment. Please try again later or contact support.';

let customerContext: BrowserContext;
let adminContext: BrowserContext;
let customer: Page;
let admin: Page;
let account: Account;
let adminEmail: string;

const withdrawForm = {
  asset: () => customer.getByLabel('Cryptocurrency'),
  amount: () => customer.getByLabel('Amount', { exact: true }),
  address: () => customer.getByLabel('Destination address'),
  submit: () => customer.getByRole('button', { name: 'Submit Withdrawal Request' }),
};

async function openWithdraw(): Promise<void> {
  const statusLoaded = customer.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/money/status',
  );
  await customer.goto('/dashboard/withdraw');
  await expect(customer.getByRole('heading', { level: 1, name: 'Withdraw Funds' })).toBeVisible();
  await statusLoaded;
}

/** Flips one switch in App Settings and saves it. */
async function saveWithdrawals(on: boolean): Promise<void> {
  const toggle = admin.getByRole('switch', { name: 'Withdrawals enabled' });
  await expect(toggle).toHaveAttribute('aria-checked', on ? 'false' : 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', on ? 'true' : 'false');
  await expect(admin.getByText('1 unsaved change.')).toBeVisible();
  // The toast of an earlier save must be gone first, so the one seen is this save's.
  const saved = toasts(admin).getByText('Settings updated successfully');
  await expect(saved).toHaveCount(0, { timeout: 10_000 });
  await admin.getByRole('button', { name: 'Save Settings' }).click();
  await expect(saved).toBeVisible();
  await expect(admin.getByText('No unsaved changes.')).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  customerContext = await browser.newContext();
  await ownAddress(customerContext);
  customer = await customerContext.newPage();
  account = await createCustomer(customer, 'settings');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());

  adminContext = await browser.newContext();
  await ownAddress(adminContext);
  admin = await adminContext.newPage();
  adminEmail = await signInNewAdmin(admin, 'settings-admin');
});

test.afterAll(async () => {
  await customerContext.close();
  await adminContext.close();
});

test('App Settings shows the price sync and every setting in four sections; a sync revalues wallets', async () => {
  await sidebar(admin).getByRole('link', { name: 'App Settings' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/settings$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'App Settings' })).toBeVisible();
  for (const section of [
    'Feature Controls',
    'API Configuration',
    'Limits & Security',
    'Other Settings',
  ]) {
    await expect(admin.getByRole('region', { name: section })).toBeVisible();
  }
  await expect(admin.getByRole('switch', { name: 'Maintenance mode' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await expect(admin.getByLabel('Price data provider')).toHaveValue('coingecko');
  await expect(admin.getByLabel('Maximum daily withdrawal (USD)')).toHaveValue('10000');
  await expect(admin.getByLabel('Staking daily rate')).toHaveValue('0.0001');
  await expect(
    admin.getByText('0.01% daily, about 3.7% a year, variable, not guaranteed'),
  ).toBeVisible();

  // A bad value is explained and cannot be saved.
  await admin.getByLabel('Staking daily rate').fill('0.65');
  await expect(
    admin.getByText(
      'Staking daily rate must be a daily rate between 0 and 0.01 (1% a day), e.g. 0.0001 for 0.01%.',
    ),
  ).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Save Settings' })).toBeDisabled();
  await admin.getByLabel('Staking daily rate').fill('0.0001');
  await expect(admin.getByRole('button', { name: 'Save Settings' })).toBeDisabled();

  const syncCard = admin.getByRole('heading', { name: 'Last sync' }).locator('..');
  await admin.getByRole('button', { name: 'Sync Wallet Prices' }).click();
  await expect(
    toasts(admin).getByText('All wallet balances synced with current market prices'),
  ).toBeVisible();
  await expect(syncCard).toContainText(adminEmail);
  await expect(syncCard).toContainText('$65,000.00');
  await expect(admin.getByText('Live feed prices')).toBeVisible();

  await expectAccessible(admin);
  await scrollToTop(admin);
  await snap(admin, 'admin-settings');
});

test('withdrawals switched off in Settings refuse the customer at once; switched on they work again', async () => {
  // The customer's form was loaded while withdrawals were on.
  await openWithdraw();
  await saveWithdrawals(false);

  await withdrawForm.asset().selectOption({ label: 'BTC - Bitcoin' });
  await withdrawForm.amount().fill('0.1');
  await withdrawForm.address().fill(BTC_ADDRESS);
  await withdrawForm.submit().click();
  // The page does not know yet: it asks for the second factor, and the server refuses.
  await confirmStepUp(customer, account, { title: 'Confirm your withdrawal' });
  await expect(toasts(customer).getByText(TURNED_OFF)).toBeVisible();
  await expect(
    customer.getByRole('alert').filter({ hasText: 'Withdrawals unavailable' }),
  ).toContainText(TURNED_OFF);

  await saveWithdrawals(true);
  await openWithdraw();
  await expect(
    customer.getByRole('alert').filter({ hasText: 'Withdrawals unavailable' }),
  ).toHaveCount(0);
  await withdrawForm.asset().selectOption({ label: 'BTC - Bitcoin' });
  await withdrawForm.amount().fill('0.1');
  await withdrawForm.address().fill(BTC_ADDRESS);
  await expect(withdrawForm.submit()).toBeEnabled();
});

test('the audit log shows both changes and filters by action and actor', async () => {
  await sidebar(admin).getByRole('link', { name: 'Audit Log' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/audit$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
  await expect(admin.getByRole('status').filter({ hasText: 'Audit chain intact' })).toBeVisible();

  await admin.getByLabel('Actor').selectOption({ label: adminEmail });
  await admin.getByLabel('Action').selectOption('settings.update');
  const entries = admin.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
  await expect(entries).toHaveCount(2);
  // Newest first: switched back on, then off.
  await expect(entries.nth(0)).toContainText('withdrawals_enabled');
  await expect(entries.nth(0).getByRole('deletion')).toHaveText('false');
  await expect(entries.nth(0).getByRole('insertion')).toHaveText('true');
  await expect(entries.nth(1).getByRole('deletion')).toHaveText('true');
  await expect(entries.nth(1).getByRole('insertion')).toHaveText('false');
  for (const entry of [entries.nth(0), entries.nth(1)])
    await expect(entry).toContainText(adminEmail);
  await expect(admin.getByText('Showing 1–2 of 2')).toBeVisible();

  // Another action of the same admin: the price sync.
  await admin.getByLabel('Action').selectOption('prices.sync');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('user_wallets');

  await admin.getByLabel('Action').selectOption('settings.update');
  await expect(entries).toHaveCount(2);
  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^coffer-audit-\d{4}-\d{2}-\d{2}\.csv$/);

  await expectAccessible(admin);
  await scrollToTop(admin);
  await snap(admin, 'admin-audit');
});
