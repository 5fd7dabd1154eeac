import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, ownAddress, uniqueTxHash } from './support/app';
import {
  type Account,
  approveSettingChange,
  confirmStepUp,
  createCustomer,
  type StepUpAdmin,
  saveSettingsWithStepUp,
  scrollToTop,
  sidebar,
  signInNewAdminAccount,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// One customer with BTC and two admins: what an admin switches off in App Settings, the
// customer meets at once; risk settings and switching money back on wait for the other
// admin's approval (four eyes); the audit log shows each step. Serial: each step builds on
// the one before.
test.describe.configure({ mode: 'serial' });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const TURNED_OFF =
  'Withdrawals and bank transfers are turned off at the moment. Please try again later or contact support.';

let customerContext: BrowserContext;
let adminContext: BrowserContext;
let approverContext: BrowserContext;
let customer: Page;
let admin: Page;
/** The second admin, who approves what the first proposes. */
let approver: Page;
let account: Account;
let adminAccount: StepUpAdmin;
let approverAccount: StepUpAdmin;
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

/** Flips one switch in App Settings and saves it with a step-up. */
async function saveWithdrawals(on: boolean): Promise<void> {
  const toggle = admin.getByRole('switch', { name: 'Withdrawals enabled' });
  await expect(toggle).toHaveAttribute('aria-checked', on ? 'false' : 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', on ? 'true' : 'false');
  await expect(admin.getByText('1 unsaved change.')).toBeVisible();
  // The toast of an earlier save must be gone first, so the one seen is this save's.
  const saved = toasts(admin).getByText(on ? 'Awaiting approval' : 'Settings updated successfully');
  await expect(saved).toHaveCount(0, { timeout: 10_000 });
  await saveSettingsWithStepUp(admin, adminAccount);
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
  adminAccount = await signInNewAdminAccount(admin, 'settings-admin');
  adminEmail = adminAccount.email;

  approverContext = await browser.newContext();
  await ownAddress(approverContext);
  approver = await approverContext.newPage();
  approverAccount = await signInNewAdminAccount(approver, 'settings-approver');
});

test.afterAll(async () => {
  await customerContext.close();
  await adminContext.close();
  await approverContext.close();
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
  await expect(admin.getByLabel('Price data provider').locator('option:checked')).toHaveText(
    'CoinGecko',
  );
  // Every setting has a plain help line; no setting key or block-counting jargon is shown.
  await expect(admin.getByLabel('Bitcoin confirmations')).toHaveAccessibleDescription(
    /^A Bitcoin deposit is credited once this many blocks hold it: 1 credits it in its first block \(1 to 100\)\./,
  );
  await expect(admin.getByLabel('Security hold (hours)')).toHaveAccessibleDescription(
    /^How long payouts, bank detail changes and 2FA changes wait after a recovery phrase is used/,
  );
  const main = admin.getByRole('main');
  await expect(main).not.toContainText('security_hold_hours');
  await expect(main).not.toContainText('the including one counts');
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
  await expect(admin.getByText('Live prices', { exact: true })).toBeVisible();

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
  await customer.getByRole('button', { name: 'Confirm and continue' }).click();
  // The page does not know yet: it asks for the second factor, and the server refuses.
  await confirmStepUp(customer, account, { title: 'Confirm your withdrawal' });
  await expect(toasts(customer).getByText(TURNED_OFF)).toBeVisible();
  await expect(
    customer.getByRole('alert').filter({ hasText: 'Withdrawals unavailable' }),
  ).toContainText(TURNED_OFF);

  // Back on is proposed: still off until the other admin approves it.
  await saveWithdrawals(true);
  await expect(admin.getByRole('switch', { name: 'Withdrawals enabled' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await openWithdraw();
  await expect(
    customer.getByRole('alert').filter({ hasText: 'Withdrawals unavailable' }),
  ).toBeVisible();

  await approveSettingChange(approver, approverAccount, 'Withdrawals enabled');
  await expect(approver.getByRole('switch', { name: 'Withdrawals enabled' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await openWithdraw();
  await expect(
    customer.getByRole('alert').filter({ hasText: 'Withdrawals unavailable' }),
  ).toHaveCount(0);
  await withdrawForm.asset().selectOption({ label: 'BTC - Bitcoin' });
  await withdrawForm.amount().fill('0.1');
  await withdrawForm.address().fill(BTC_ADDRESS);
  await expect(withdrawForm.submit()).toBeEnabled();
});

test('a risk setting is proposed by one admin and applied when another approves it, both with step-up', async () => {
  await admin.goto('/dashboard/admin/settings');
  const limit = admin.getByLabel('Maximum daily withdrawal (USD)');
  await expect(limit).toHaveValue('10000');
  await limit.fill('25000');
  await admin.getByRole('button', { name: 'Save Settings' }).click();
  await expect(admin.getByRole('dialog')).toBeVisible();
  await snap(admin, 'admin-settings-save-step-up');
  await confirmStepUp(admin, adminAccount, {
    title: 'Confirm the settings change',
    says: 'Maximum daily withdrawal (USD) will wait for another admin\u2019s approval.',
  });
  // Said as waiting, never as saved.
  await expect(toasts(admin).getByText('Awaiting approval')).toBeVisible();
  await expect(toasts(admin).getByText('Settings updated successfully')).toHaveCount(0);
  await expect(limit).toHaveValue('10000');
  await expect(admin.getByText('Awaiting another admin\u2019s approval: 25000')).toBeVisible();

  // The proposer sees it waiting for someone else, with no way to approve it.
  const mine = admin
    .getByRole('list', { name: 'Changes awaiting approval' })
    .getByRole('listitem')
    .filter({ has: admin.getByText('Maximum daily withdrawal (USD)', { exact: true }) });
  await expect(mine).toContainText('From 10000 to 25000');
  await expect(mine).toContainText('Proposed by you');
  await expect(mine).toContainText(
    'Another admin must approve this change before it takes effect.',
  );
  await expect(mine.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAccessible(admin);
  await scrollToTop(admin);
  await snap(admin, 'admin-settings-proposed');

  // The other admin sees who proposed what and when, and approves it with a step-up.
  await approver.goto('/dashboard/admin/settings');
  const theirs = approver
    .getByRole('list', { name: 'Changes awaiting approval' })
    .getByRole('listitem')
    .filter({ has: approver.getByText('Maximum daily withdrawal (USD)', { exact: true }) });
  await expect(theirs).toContainText('From 10000 to 25000');
  await expect(theirs).toContainText(`Proposed by ${adminEmail} on`);
  await expect(theirs.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expect(theirs.getByRole('button', { name: 'Reject' })).toBeVisible();
  await expectAccessible(approver);
  await scrollToTop(approver);
  await snap(approver, 'admin-settings-approve');
  await approveSettingChange(approver, approverAccount, 'Maximum daily withdrawal (USD)');
  await expect(approver.getByLabel('Maximum daily withdrawal (USD)')).toHaveValue('25000');
  await expect(approver.getByRole('region', { name: 'Awaiting approval' })).toHaveCount(0);

  await admin.reload();
  await expect(admin.getByLabel('Maximum daily withdrawal (USD)')).toHaveValue('25000');
  await expect(admin.getByText(/Awaiting another admin/)).toHaveCount(0);
});

test('the audit log shows the stop, the proposals and the approvals, and filters by action and actor', async () => {
  await sidebar(admin).getByRole('link', { name: 'Audit Log' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/audit$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
  await expect(admin.getByRole('status').filter({ hasText: 'Audit chain intact' })).toBeVisible();

  await admin.getByLabel('Actor').selectOption({ label: adminEmail });
  await admin.getByLabel('Action').selectOption('settings.update');
  const entries = admin.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
  // Switched off at once: the one change this admin applied alone.
  await expect(entries).toHaveCount(1);
  await expect(entries.nth(0)).toContainText('withdrawals_enabled');
  await expect(entries.nth(0).getByRole('deletion')).toHaveText('true');
  await expect(entries.nth(0).getByRole('insertion')).toHaveText('false');
  await expect(entries.nth(0)).toContainText(adminEmail);

  // Switching back on and the new limit were proposals (two-person changes, decision 0036),
  // applied by the other admin.
  await admin.getByLabel('Action').selectOption('change.propose');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText('max_daily_withdrawal');
  await expect(entries.nth(1)).toContainText('withdrawals_enabled');
  await admin.getByLabel('Actor').selectOption({ label: approverAccount.email });
  await admin.getByLabel('Action').selectOption('settings.approve');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText('max_daily_withdrawal');
  await expect(entries.nth(0)).toContainText('25000');
  await expect(entries.nth(1)).toContainText('withdrawals_enabled');
  await admin.getByLabel('Actor').selectOption({ label: adminEmail });

  // Another action of the same admin: the price sync.
  await admin.getByLabel('Action').selectOption('prices.sync');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('user_wallets');

  await admin.getByLabel('Action').selectOption('settings.update');
  await expect(entries).toHaveCount(1);
  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^coffer-audit-\d{4}-\d{2}-\d{2}\.csv$/);

  await expectAccessible(admin);
  await scrollToTop(admin);
  await snap(admin, 'admin-audit');
});

test('the price sync card names prices that are not live in the words the customer reads', async () => {
  /** Answers the price status as the server does when its feed is down. */
  async function pricesFrom(source: 'cached' | 'fallback') {
    await admin.unrouteAll();
    const pricesAt = source === 'cached' ? new Date(Date.now() - 12 * 60_000).toISOString() : null;
    await admin.route('**/api/admin/prices/sync', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      const status = await response.json();
      await route.fulfill({
        response,
        json: { ...status, current: { ...status.current, source, pricesAt } },
      });
    });
    await admin.goto('/dashboard/admin/settings');
  }
  const current = admin.getByRole('region', { name: 'Prices in use' });

  await pricesFrom('fallback');
  await expect(current.getByText('Catalogue prices', { exact: true })).toBeVisible();
  await expect(current).toContainText(
    'The price feed has never been reached: values use catalogue prices, not market prices.',
  );
  await expect(current).not.toContainText('as of');

  await pricesFrom('cached');
  await expect(current.getByText('Last live prices', { exact: true })).toBeVisible();
  await expect(current).toContainText(
    'The price feed is not answering: values use the last live prices, from 12 minutes ago.',
  );
  await snap(admin, 'admin-settings-prices-cached');
  await admin.unrouteAll();
});
