import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import {
  type Account,
  confirmStepUp,
  createCustomer,
  sidebar,
  signInNewAdminAccount,
  toasts,
} from './support/flows';
import { textInsetFromBorder } from './support/layout';
import { snap } from './support/shots';

// One customer: a new one with no history, then with two deposits and a withdrawal, which
// an admin finally rejects.
test.describe.configure({ mode: 'serial' });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const WITHDRAWAL_REASON = 'The destination address is on a sanctions list.';
const btcHash = uniqueTxHash();
const ethHash = uniqueTxHash();

let page: Page;
let account: Account;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  account = await createCustomer(page, 'history');
});

test.afterAll(async () => {
  await page.context().close();
});

async function openHistory(): Promise<void> {
  await page.goto('/dashboard/history');
  await expect(page.getByRole('heading', { level: 1, name: 'Transaction History' })).toBeVisible();
}

test('a new customer has no transactions yet, and is shown where to start', async () => {
  await sidebar(page).getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  const empty = page.getByText('No Transactions Yet', { exact: true });
  await expect(empty).toBeVisible();
  // The card's padding above it: it does not sit on the card's border.
  expect(await textInsetFromBorder(empty)).toBeGreaterThanOrEqual(20);
  await expect(page.getByText('0 Transaction(s)', { exact: true })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(0);
  // Nothing to export.
  await expect(page.getByRole('button', { name: 'Export' })).toBeDisabled();
  await expectAccessible(page);
  await snap(page, 'history-empty');

  await page.getByRole('link', { name: 'Make a Deposit' }).click();
  await expect(page).toHaveURL(/\/dashboard\/deposit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Deposit' })).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: 'Make a Withdrawal' }).click();
  await expect(page).toHaveURL(/\/dashboard\/withdraw$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw Funds' })).toBeVisible();
});

test('the history lists every transaction newest first, with its status and amount', async () => {
  creditDeposit(account.email, 'BTC', '0.5', btcHash);
  creditDeposit(account.email, 'ETH', '2', ethHash);

  // A withdrawal, requested on the withdraw page.
  await page.goto('/dashboard/withdraw');
  await page.getByLabel('Cryptocurrency').selectOption({ label: 'BTC - Bitcoin' });
  await page.getByLabel('Amount', { exact: true }).fill('0.1');
  await page.getByLabel('Destination address').fill(BTC_ADDRESS);
  await page.getByRole('button', { name: 'Submit Withdrawal Request' }).click();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await confirmStepUp(page, account, {
    title: 'Confirm your withdrawal',
    says: `0.1 BTC to ${BTC_ADDRESS}`,
  });
  await expect(toasts(page).getByText('Withdrawal request submitted successfully')).toBeVisible();

  await openHistory();
  await expect(page.getByText('3 Transaction(s)', { exact: true })).toBeVisible();
  const rows = page.getByRole('article');
  await expect(rows).toHaveCount(3);

  const [withdrawal, ethDeposit, btcDeposit] = [rows.nth(0), rows.nth(1), rows.nth(2)];
  await expect(withdrawal).toHaveAccessibleName(/^Withdrawal, /);
  await expect(withdrawal.getByText('pending', { exact: true })).toBeVisible();
  await expect(withdrawal).toContainText('−0.10000000 BTC');
  await expect(withdrawal).toContainText('$6,500.00');
  // The fee is finer than nothing: shown to its last unit, at least the asset's decimals.
  await expect(withdrawal.getByText('0.00010000 BTC', { exact: true })).toBeVisible();
  // When, in the one format of every screen.
  await expect(withdrawal.locator('time')).toHaveText(
    /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/,
  );

  await expect(ethDeposit).toHaveAccessibleName(/^Deposit, /);
  await expect(ethDeposit.getByText('completed', { exact: true })).toBeVisible();
  await expect(ethDeposit).toContainText('+2.000000 ETH');
  await expect(ethDeposit).toContainText('$6,000.00');
  await expect(ethDeposit).toContainText(ethHash);

  await expect(btcDeposit).toHaveAccessibleName(/^Deposit, /);
  await expect(btcDeposit.getByText('completed', { exact: true })).toBeVisible();
  await expect(btcDeposit).toContainText('+0.50000000 BTC');
  await expect(btcDeposit).toContainText('$32,500.00');
  await expect(btcDeposit).toContainText(btcHash);

  await expectAccessible(page);
  await snap(page, 'history-list');
});

test('Export downloads the history as CSV', async () => {
  await openHistory();
  await expect(page.getByText('3 Transaction(s)', { exact: true })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);

  const lines = fs
    .readFileSync(await file.path(), 'utf8')
    .split('\r\n')
    .filter((line) => line !== '');
  expect(lines[0]).toBe(
    'Date,Type,Asset,Amount,Fee,USD,AUD,USD per AUD,Asset price (USD),Status,Transaction hash,Address,Reason',
  );
  // This customer's three rows and nobody else's, newest first.
  expect(lines).toHaveLength(4);
  expect(lines[1]).toMatch(
    new RegExp(`^[^,]+,withdrawal,BTC,0\\.1,0\\.0001,6500\\.00,,,,pending,,${BTC_ADDRESS},$`),
  );
  // An Ethereum hash is kept in its one form, 0x and lower case.
  expect(lines[2]).toMatch(
    new RegExp(`^[^,]+,deposit,ETH,2,0,6000\\.00,,,,completed,0x${ethHash},,$`),
  );
  expect(lines[3]).toMatch(
    new RegExp(`^[^,]+,deposit,BTC,0\\.5,0,32500\\.00,,,,completed,${btcHash},,$`),
  );
});

test('a withdrawal staff reject reads Rejected with the reason, and its hold is back', async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const admin = await context.newPage();
    const staff = await signInNewAdminAccount(admin, 'history-admin');
    await admin.goto('/dashboard/admin/transactions');
    await admin.getByRole('tab', { name: 'Pending withdrawals' }).click();
    // The queue lists the oldest first, a page at a time: this customer's, searched for.
    await admin
      .getByRole('tabpanel')
      .getByRole('searchbox', { name: 'Search' })
      .fill(account.email);
    const row = admin
      .getByRole('main')
      .getByRole('row')
      .filter({ hasText: account.email })
      .filter({ hasText: '0.10000000 BTC' });
    await row.getByRole('button', { name: 'Reject' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Reject request' });
    await dialog.getByLabel('Reason (shown to the customer)').fill(WITHDRAWAL_REASON);
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await confirmStepUp(admin, staff, { title: 'Confirm the rejection' });
    await expect(toasts(admin).getByText('Request rejected')).toBeVisible();
  } finally {
    await context.close();
  }

  await openHistory();
  const withdrawal = page.getByRole('article', { name: /^Withdrawal, / });
  await expect(withdrawal.getByText('rejected', { exact: true })).toBeVisible();
  await expect(withdrawal.getByText('failed', { exact: true })).toHaveCount(0);
  await expect(withdrawal).toContainText(`Rejected because:${WITHDRAWAL_REASON}`);
  await expect(withdrawal).toContainText(
    'Not sent: the 0.10000000 BTC held for it, with its fee, was returned to your balance.',
  );
  // Struck through, without the minus sign of money that left.
  await expect(withdrawal.locator('s')).toHaveText('0.10000000 BTC');
  await expect(withdrawal).not.toContainText('−0.10000000 BTC');
  await expectAccessible(page);

  await page.goto('/dashboard');
  const bitcoin = page.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(bitcoin).toContainText('0.50000000 BTC');
  await expect(bitcoin).not.toContainText('on hold');
});
