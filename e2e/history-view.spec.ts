import { expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import { query } from './support/db';
import { type Account, confirmStepUp, createCustomer, scrollToTop, toasts } from './support/flows';
import { snap } from './support/shots';

// One customer: two deposits and thirty older statement notes (rows that move nothing),
// then a withdrawal they cancel from History. The filters, search, sort and page live in
// the URL: a reload shows the same page. Serial: each test builds on the history before.
test.describe.configure({ mode: 'serial' });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const btcHash = uniqueTxHash();
const ethHash = uniqueTxHash();
const NOTES = 30;

let page: Page;
let account: Account;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  account = await createCustomer(page, 'history-view');
  creditDeposit(account.email, 'BTC', '0.5', btcHash);
  creditDeposit(account.email, 'ETH', '2', ethHash);
  // Older rows without a balance effect, a day apart, so that the history has two pages.
  await query(
    `INSERT INTO transactions (user_id, transaction_type, direction, asset_id, status, reason, transaction_date)
     SELECT u.id, 'others', 'none', 'AUD', 'completed', 'Statement note ' || i,
            now() - interval '1 day' * (31 - i)
       FROM users u, generate_series(1, $2::int) AS i WHERE u.email = $1`,
    [account.email, NOTES],
  );
});

test.afterAll(async () => {
  await page.context().close();
});

const rows = () => page.getByRole('article');
const choice = (label: string) =>
  page.getByRole('form', { name: 'Filter transactions' }).getByLabel(label);

async function openHistory(search = ''): Promise<void> {
  await page.goto(`/dashboard/history${search}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Transaction History' })).toBeVisible();
}

test('filters, search and sort apply on the server and stay in the URL', async () => {
  await openHistory();
  await expect(page.getByText(`${NOTES + 2} Transaction(s)`, { exact: true })).toBeVisible();

  await choice('Type').selectOption({ label: 'Deposit' });
  await expect(page).toHaveURL(/\/dashboard\/history\?type=deposit$/);
  await expect(page.getByText('2 Transaction(s)', { exact: true })).toBeVisible();
  await expect(rows()).toHaveCount(2);

  // Highest first: 2 ETH before 0.5 BTC, whatever their dates.
  await choice('Sort').selectOption({ label: 'Highest amount' });
  await expect(page).toHaveURL(/[?&]sort=amount/);
  await expect(rows().first()).toContainText('+2.000000 ETH');
  await expect(rows().nth(1)).toContainText('+0.50000000 BTC');
  await choice('Sort').selectOption({ label: 'Lowest amount' });
  await expect(page).toHaveURL(/[?&]order=asc/);
  await expect(rows().first()).toContainText('+0.50000000 BTC');

  // A reload (or the link, shared) shows the same.
  await page.reload();
  await expect(choice('Type')).toHaveValue('deposit');
  await expect(choice('Sort')).toHaveValue('amount-asc');
  await expect(rows()).toHaveCount(2);
  await expect(rows().first()).toContainText('+0.50000000 BTC');

  // Part of a hash, in capitals: the one deposit it belongs to.
  await choice('Search').fill(btcHash.slice(10, 30).toUpperCase());
  await expect(page).toHaveURL(new RegExp(`[?&]q=${btcHash.slice(10, 30).toUpperCase()}`));
  await expect(rows()).toHaveCount(1);
  await expect(rows().first()).toContainText(btcHash);
  await expectAccessible(page);
  await snap(page, 'history-filtered');

  // Nothing matches: said so, with the way back.
  await choice('Status').selectOption({ label: 'Pending' });
  await expect(page.getByText('No matching transactions', { exact: true })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Clear filters' }).last().click();
  await expect(page).toHaveURL(/\/dashboard\/history\?sort=amount&order=asc$/);
  await expect(choice('Search')).toHaveValue('');
  await expect(page.getByText(`${NOTES + 2} Transaction(s)`, { exact: true })).toBeVisible();
});

test('Next and Previous page through to the oldest row; a page’s link shows that page', async () => {
  await openHistory();
  await expect(rows()).toHaveCount(25);
  await expect(rows().first()).toHaveAccessibleName(/^Deposit, /);
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();

  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]cursor=/);
  await expect(rows()).toHaveCount(NOTES + 2 - 25);
  await expect(rows().last()).toContainText('Statement note 1');
  await expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
  const secondPage = page.url();

  await page.reload();
  await expect(rows()).toHaveCount(NOTES + 2 - 25);
  await expect(rows().last()).toContainText('Statement note 1');

  await pages.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/[?&]before=/);
  await expect(rows()).toHaveCount(25);
  await expect(rows().first()).toHaveAccessibleName(/^Deposit, /);
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();

  // Back returns to the page before, as a browser should.
  await page.goBack();
  await expect(page).toHaveURL(secondPage);
  await expect(rows().last()).toContainText('Statement note 1');

  // Oldest first, the notes lead and the deposits close the last page.
  await openHistory('?order=asc');
  await expect(rows().first()).toContainText('Statement note 1');
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(rows().last()).toHaveAccessibleName(/^Deposit, /);
});

test('a pending withdrawal is cancelled from History: the row reads cancelled and the balance is back', async () => {
  await page.goto('/dashboard/withdraw');
  await page.getByLabel('Cryptocurrency').selectOption({ label: 'BTC - Bitcoin' });
  await page.getByLabel('Amount', { exact: true }).fill('0.1');
  await page.getByLabel('Destination address').fill(BTC_ADDRESS);
  await page.getByRole('button', { name: 'Submit Withdrawal Request' }).click();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await confirmStepUp(page, account, { title: 'Confirm your withdrawal' });
  await expect(toasts(page).getByText('Withdrawal request submitted successfully')).toBeVisible();

  await page.goto('/dashboard');
  const bitcoin = page.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(bitcoin).toContainText('on hold');

  await openHistory('?type=withdrawal');
  const withdrawal = page.getByRole('article', { name: /^Withdrawal, / });
  await expect(withdrawal.getByText('pending', { exact: true })).toBeVisible();
  // Only the deposits' and notes' rows: nothing else offers Cancel.
  await openHistory();
  await expect(page.getByRole('button', { name: 'Cancel withdrawal' })).toHaveCount(1);

  // Changing one's mind keeps it.
  await withdrawal.getByRole('button', { name: 'Cancel withdrawal' }).click();
  let dialog = page.getByRole('dialog', { name: 'Cancel this withdrawal?' });
  await expect(dialog.getByText('Your 0.10000000 BTC withdrawal will not be sent.')).toBeVisible();
  await expect(dialog).toContainText(`Amount0.10000000 BTCAssetBTCTo${BTC_ADDRESS}`);
  await expect(dialog).toContainText(
    'The 0.10000000 BTC and its 0.00010000 BTC network fee held for it',
  );
  await expectAccessible(page);
  await snap(page, 'history-cancel-dialog');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toBeHidden();
  await expect(withdrawal.getByText('pending', { exact: true })).toBeVisible();

  await withdrawal.getByRole('button', { name: 'Cancel withdrawal' }).click();
  dialog = page.getByRole('dialog', { name: 'Cancel this withdrawal?' });
  await dialog.getByRole('button', { name: 'Cancel withdrawal' }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(page).getByText('Withdrawal cancelled')).toBeVisible();

  await expect(withdrawal.getByText('cancelled', { exact: true })).toBeVisible();
  await expect(withdrawal.getByText('pending', { exact: true })).toHaveCount(0);
  await expect(withdrawal).toContainText(
    'Cancelled by you: the 0.10000000 BTC held for it, with its fee, was returned to your balance.',
  );
  await expect(withdrawal.getByRole('button', { name: 'Cancel withdrawal' })).toHaveCount(0);
  await expect(withdrawal.locator('s')).toHaveText('0.10000000 BTC');
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'history-cancelled');

  // The status filter finds it among the failed, rejected or cancelled.
  await choice('Status').selectOption({ label: 'Failed, rejected or cancelled' });
  await expect(rows()).toHaveCount(1);

  await page.goto('/dashboard');
  await expect(bitcoin).toContainText('0.50000000 BTC');
  await expect(bitcoin).not.toContainText('on hold');
});

test('a pending bank payout names its account when cancelled, and its ETH is available again', async () => {
  await page.goto('/bank-transfer');
  await expect(page.getByRole('heading', { level: 1, name: 'Bank Transfer' })).toBeVisible();
  await page.getByLabel('Account name').fill('Jane Citizen');
  await page.getByLabel('Account number').fill('12345678');
  await page.getByLabel('BSB number / sort code').fill('062000');
  await page.getByLabel('Amount (AUD)').fill('100');
  await page.getByRole('radio', { name: /^ETH · Ethereum/ }).check();
  await page.getByRole('button', { name: 'Submit Bank Transfer Request' }).click();
  await confirmStepUp(page, account, { title: 'Confirm your bank transfer' });
  await expect(page).toHaveURL(/\/dashboard\/history$/);

  const transfer = page.getByRole('article', { name: /^Bank Transfer, / });
  await expect(transfer.getByText('pending', { exact: true })).toBeVisible();
  await expect(transfer).toContainText('To:Jane Citizen, BSB 062-000, account ending 5678');
  await transfer.getByRole('button', { name: 'Cancel bank transfer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this bank transfer?' });
  await expect(dialog.getByText('Your A$100.00 bank transfer will not be paid.')).toBeVisible();
  await expect(dialog).toContainText(
    'AmountA$100.00Paid from0.021810 ETHToJane Citizen, BSB 062-000, account ending 5678',
  );
  await expectAccessible(page);
  await snap(page, 'history-cancel-bank-dialog');
  await dialog.getByRole('button', { name: 'Cancel bank transfer' }).click();
  await expect(toasts(page).getByText('Bank transfer cancelled')).toBeVisible();
  await expect(transfer.getByText('cancelled', { exact: true })).toBeVisible();
  await expect(transfer).toContainText(
    'Cancelled by you: the 0.021810 ETH held for it was returned',
  );

  await page.goto('/dashboard');
  const ether = page.getByRole('main').getByRole('link', { name: /^Ethereum ETH/ });
  await expect(ether).toContainText('2.000000 ETH');
  await expect(ether).not.toContainText('on hold');
});
