import { STAFF_MSG } from '@coffer/shared';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible, ownAddress } from './support/app';
import {
  type Account,
  approveThroughApi,
  confirmStepUp,
  createCustomer,
  sidebar,
  signInNewAdminAccount,
  stepUpDialog,
  toasts,
  wrongCode,
} from './support/flows';
import { expectNoSidewaysScroll, expectOnOneLine } from './support/layout';
import { snap } from './support/shots';

// One customer and four staff members: admin A proposes a deposit credit and admin C
// approves it; the customer withdraws part of it; admin B approves the withdrawal and
// proposes its completion, which admin D approves (B and D had no hand in the credit, so they
// may decide the customer's payouts). Serial: each step builds on the one before.
test.describe.configure({ mode: 'serial' });

/** 'Nov 28, 2026, 4:53 PM': how every screen writes a date and time. */
const DATE_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/;

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const PAYOUT_HASH = 'f'.repeat(8) + 'a1b2c3d4'.repeat(7);

let contexts: BrowserContext[] = [];
let customer: Page;
let adminA: Page;
let adminB: Page;
let account: Account;
let staffA: Account;
let staffB: Account;
let adminC: Page;
let staffC: Account;
let adminD: Page;
let staffD: Account;

async function newPage(browser: import('@playwright/test').Browser): Promise<Page> {
  const context = await browser.newContext();
  await ownAddress(context);
  contexts.push(context);
  return context.newPage();
}

async function openTransactions(page: Page): Promise<void> {
  await sidebar(page).getByRole('link', { name: 'Transactions' }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/transactions$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Transaction Management' }),
  ).toBeVisible();
  // The link keeps the screen as it was when it is open already: start from the list.
  await page.getByRole('tab', { name: 'All transactions' }).click();
}

test.beforeAll(async ({ browser }) => {
  // Several accounts, staff among them made with the CLI, before the first step.
  test.setTimeout(240_000);
  customer = await newPage(browser);
  account = await createCustomer(customer, 'admin-tx');
  adminA = await newPage(browser);
  staffA = await signInNewAdminAccount(adminA, 'tx-admin-a');
  adminB = await newPage(browser);
  staffB = await signInNewAdminAccount(adminB, 'tx-admin-b');
  adminC = await newPage(browser);
  staffC = await signInNewAdminAccount(adminC, 'tx-admin-c');
  adminD = await newPage(browser);
  staffD = await signInNewAdminAccount(adminD, 'tx-admin-d');
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
  contexts = [];
});

test('an admin credits a deposit through Add Transaction and the customer sees it live', async () => {
  await customer.goto('/dashboard');
  const bitcoin = customer.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(bitcoin).toContainText('0.00000000 BTC');
  await openTransactions(adminA);
  await expectAccessible(adminA);
  await snap(adminA, 'admin-transactions');

  // Nothing matches a search for a customer who has no transactions yet.
  await adminA.getByLabel('Search').fill(account.email);
  await expect(adminA.getByText('No transactions found matching your criteria.')).toBeVisible();

  await adminA.getByRole('button', { name: 'Add Transaction' }).click();
  const dialog = adminA.getByRole('dialog', { name: 'Add Transaction' });
  // The spec's required-fields message when nothing is chosen.
  await dialog.getByRole('button', { name: 'Add Transaction' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please fill in all required fields');

  const picker = dialog.getByRole('combobox', { name: 'User' });
  await picker.fill(account.email);
  await adminA
    .getByRole('option', { name: new RegExp(account.email.replace(/[.+]/g, '\\$&')) })
    .click();
  await dialog.getByLabel('Type').selectOption('deposit');
  await dialog.getByLabel('Asset').selectOption({ label: 'BTC - Bitcoin' });
  await dialog.getByLabel(/^Crypto amount/).fill('0.25');
  // USD and AUD follow from the live price and the fixed 1.52 rate.
  await expect(dialog.getByLabel('USD amount')).not.toHaveValue('');
  await expect(dialog.getByLabel('AUD amount')).not.toHaveValue('');
  await dialog.getByLabel('Status').selectOption('completed');

  // Banking Details appear only for a bank transfer.
  await expect(dialog.getByRole('group', { name: 'Banking Details' })).toHaveCount(0);
  await dialog.getByLabel('Type').selectOption('bank_transfer');
  await expect(dialog.getByRole('group', { name: 'Banking Details' })).toBeVisible();
  await dialog.getByLabel('Type').selectOption('deposit');

  await dialog.getByLabel('Reason').fill('Incoming wire matched, ticket 1001');
  await expectAccessible(adminA);
  await snap(adminA, 'admin-transactions-add');
  await dialog.getByRole('button', { name: 'Add Transaction' }).click();
  // Money moved by staff takes the admin's own fresh second factor, as a customer's does.
  await confirmStepUp(adminA, staffA, { title: 'Confirm the new transaction' });
  // Proposed: nothing is booked until a second staff member approves it.
  await expect(toasts(adminA).getByText(STAFF_MSG.proposed)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(adminA.getByText('No transactions found matching your criteria.')).toBeVisible();
  await approveThroughApi(adminC, staffC, staffA, 'transaction.credit');
  await adminA.reload();
  await adminA.getByLabel('Search').fill(account.email);

  const row = adminA.getByRole('main').getByRole('row').filter({ hasText: '0.25000000 BTC' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Completed');
  await expect(row).toContainText('Deposit');
  // The date in the one format of every screen; the figures each on one line at 1440 px
  // ('0.25000000 BTC', never '0.25000000' over 'BTC'), and readable on a phone.
  await expect(row.getByRole('cell').first()).toHaveText(DATE_TIME);
  const figures = row.locator(
    'td[data-label="Amount"], td[data-label="USD"], td[data-label="AUD"]',
  );
  await adminA.setViewportSize({ width: 1440, height: 900 });
  await expectOnOneLine(figures);
  await adminA.setViewportSize({ width: 375, height: 812 });
  await expectOnOneLine(row.locator('td[data-label="Amount"]'));
  await expectNoSidewaysScroll(adminA.locator('html'));
  await snap(adminA, 'admin-transactions-row');
  await adminA.setViewportSize({ width: 1280, height: 720 });

  await row.getByRole('button', { name: /^View transaction/ }).click();
  const details = adminA.getByRole('dialog', { name: 'Transaction Details' });
  await expect(details).toContainText(account.email);
  await expect(details).toContainText('0.25000000 BTC');
  await snap(adminA, 'admin-transactions-details');
  await details.getByRole('button', { name: 'Close' }).click();

  // Edit opens on the row as the server has it now.
  await row.getByRole('button', { name: /^Edit transaction/ }).click();
  const editing = adminA.getByRole('dialog', { name: 'Edit Transaction' });
  await expect(editing.getByLabel(/^Crypto amount/)).toHaveValue('0.25');
  await expect(editing.getByLabel('Status')).toHaveValue('completed');
  await snap(adminA, 'admin-transactions-edit');
  // Without a reason nothing is saved, and the form says why.
  await editing.getByRole('button', { name: 'Save Changes' }).click();
  await expect(editing.getByRole('alert')).toContainText(
    'Enter the reason for this change; it is kept in the audit log.',
  );
  await editing.getByRole('button', { name: 'Close' }).click();
  await expect(editing).toHaveCount(0);

  // No reload: the server announces the ledger change on the customer's socket and the
  // open dashboard refetches (its 30-second poll is far longer than this wait).
  await expect(bitcoin).toContainText('0.25000000 BTC');
});

test('the customer requests a withdrawal', async () => {
  await customer.goto('/dashboard/withdraw');
  await customer.getByLabel('Cryptocurrency').selectOption({ label: 'BTC - Bitcoin' });
  await customer.getByLabel('Amount', { exact: true }).fill('0.1');
  await customer.getByLabel('Destination address').fill(BTC_ADDRESS);
  await customer.getByRole('button', { name: 'Submit Withdrawal Request' }).click();
  await customer.getByRole('button', { name: 'Confirm and continue' }).click();
  await confirmStepUp(customer, account, {
    title: 'Confirm your withdrawal',
    says: `0.1 BTC to ${BTC_ADDRESS}`,
  });
  await expect(
    toasts(customer).getByText('Withdrawal request submitted successfully'),
  ).toBeVisible();
});

test("Edit shows the customer's destination and amount but does not offer them", async () => {
  await openTransactions(adminA);
  await adminA.getByLabel('Search').fill(account.email);
  const row = adminA
    .getByRole('main')
    .getByRole('row')
    .filter({ hasText: 'Withdrawal' })
    .filter({ hasText: '0.10000000 BTC' });
  await row.getByRole('button', { name: /^Edit transaction/ }).click();
  const editing = adminA.getByRole('dialog', { name: 'Edit Transaction' });
  await expect(editing).toContainText('The customer confirmed this destination');
  await expect(editing.getByLabel('Withdrawal address')).toHaveValue(BTC_ADDRESS);
  for (const label of ['Withdrawal address', 'Asset', /^Crypto amount/, 'USD amount']) {
    await expect(editing.getByLabel(label)).toBeDisabled();
  }
  await expectAccessible(adminA);
  await snap(adminA, 'admin-transactions-customer-payout-edit');
  await editing.getByRole('button', { name: 'Close' }).click();
  await expect(editing).toHaveCount(0);
});

/** The queue lists the oldest first, a page at a time: this customer's, searched for. */
async function searchQueue(page: Page) {
  await page.getByRole('tabpanel').getByRole('searchbox', { name: 'Search' }).fill(account.email);
}

function pendingRow(page: Page) {
  return page
    .getByRole('main')
    .getByRole('row')
    .filter({ hasText: account.email })
    .filter({ hasText: '0.10000000 BTC' });
}

test('an admin approves the withdrawal before anyone can complete it', async () => {
  // Admin B: A proposed the customer's credit and C approved it, so neither decides their
  // payouts for 30 days.
  await openTransactions(adminB);
  await adminB.getByRole('tab', { name: 'Pending withdrawals' }).click();
  await searchQueue(adminB);
  const row = pendingRow(adminB);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(BTC_ADDRESS);
  // Not approved yet: it can be approved or rejected, not completed.
  await expect(row.getByRole('button', { name: 'Complete' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Reject' })).toBeVisible();
  await expectAccessible(adminB);
  await snap(adminB, 'admin-transactions-pending');

  await row.getByRole('button', { name: 'Approve' }).click();
  await confirmStepUp(adminB, staffB, { title: 'Approve withdrawal', says: account.email });
  await expect(toasts(adminB).getByText('Withdrawal approved')).toBeVisible();
  await expect(row.getByText('Approved', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Complete' })).toBeVisible();
});

test('an admin proposes its completion in Pending withdrawals; another approves it', async () => {
  await openTransactions(adminB);
  await adminB.getByRole('tab', { name: 'Pending withdrawals' }).click();
  await searchQueue(adminB);
  const row = pendingRow(adminB);
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Approved', { exact: true })).toBeVisible();

  await row.getByRole('button', { name: 'Complete' }).click();
  const dialog = adminB.getByRole('dialog', { name: 'Complete withdrawal' });
  await dialog.getByRole('button', { name: 'Mark as completed' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter the transaction hash of the payout.');
  await dialog.getByLabel('Chain transaction hash').fill(PAYOUT_HASH);
  await dialog.getByRole('button', { name: 'Mark as completed' }).click();

  // The payout is confirmed with admin B's own second factor: a wrong code is refused in
  // the dialog and nothing is paid out; the right one completes it.
  const stepUp = stepUpDialog(adminB);
  await expect(
    stepUp.getByRole('heading', { name: 'Confirm the withdrawal', exact: true }),
  ).toBeVisible();
  await expect(stepUp).toContainText('Mark 0.10000000 BTC for');
  await snap(adminB, 'admin-transactions-complete-step-up');
  await stepUp.getByLabel('Authentication code').fill(wrongCode(staffB.secret));
  await stepUp.getByRole('button', { name: 'Propose completion' }).click();
  await expect(stepUp.getByText('Invalid code.', { exact: false })).toBeVisible();
  // Still waiting (the page behind the dialog is hidden from the accessibility tree).
  const pending = await (
    await adminB.request.get(`/api/admin/withdrawals/pending?q=${account.email}`)
  ).json();
  expect(
    pending.items.filter(
      (i: { customer: { email: string } }) => i.customer.email === account.email,
    ),
  ).toHaveLength(1);
  await confirmStepUp(adminB, staffB, { title: 'Confirm the withdrawal' });
  await expect(toasts(adminB).getByText(STAFF_MSG.proposed)).toBeVisible();
  // Paid only when another staff member approves the completion.
  await expect(row).toHaveCount(1);
  await approveThroughApi(adminD, staffD, staffB, 'payout.complete');
  await adminB.reload();
  await searchQueue(adminB);
  await expect(row).toHaveCount(0);

  await adminB.getByRole('tab', { name: 'All transactions' }).click();
  await adminB.getByLabel('Search').fill(account.email);
  const listed = adminB
    .getByRole('main')
    .getByRole('row')
    .filter({ hasText: 'Withdrawal' })
    .filter({ hasText: '0.10000000 BTC' });
  // The search applies once typing pauses: then this customer's withdrawal is the one row.
  await expect(listed).toHaveCount(1);
  await listed.getByRole('button', { name: /^View transaction/ }).click();
  const details = adminB.getByRole('dialog', { name: 'Transaction Details' });
  await expect(details.getByText('Unverified', { exact: true })).toBeVisible();
  await expect(details).toContainText(PAYOUT_HASH);
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(details).toHaveCount(0);
});

test("the customer's history shows the withdrawal completed", async () => {
  await customer.goto('/dashboard/history');
  const withdrawal = customer.getByRole('article', { name: /^Withdrawal, / });
  await expect(withdrawal).toHaveCount(1);
  await expect(withdrawal.getByText('completed', { exact: true })).toBeVisible();
  await expect(withdrawal).toContainText(PAYOUT_HASH.slice(0, 10));
  // 0.25 credited, 0.1 + 0.0001 fee paid out.
  await customer.goto('/dashboard');
  await expect(
    customer.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ }),
  ).toContainText('0.14990000 BTC');
});

test('deleting a transaction asks why, then for the admin’s own step-up', async () => {
  await openTransactions(adminA);
  await adminA.getByRole('button', { name: 'Add Transaction' }).click();
  const dialog = adminA.getByRole('dialog', { name: 'Add Transaction' });
  await dialog.getByRole('combobox', { name: 'User' }).fill(account.email);
  await adminA
    .getByRole('option', { name: new RegExp(account.email.replace(/[.+]/g, '\\$&')) })
    .click();
  await dialog.getByLabel('Type').selectOption('deposit');
  await dialog.getByLabel('Asset').selectOption({ label: 'BTC - Bitcoin' });
  await dialog.getByLabel(/^Crypto amount/).fill('0.0125');
  await expect(dialog.getByLabel('USD amount')).not.toHaveValue('');
  // Pending: a completed deposit is final, corrected by an adjustment, never deleted.
  await dialog.getByLabel('Status').selectOption('pending');
  await dialog.getByLabel('Reason').fill('Wire matched twice by mistake, ticket 1002');
  await dialog.getByRole('button', { name: 'Add Transaction' }).click();
  await confirmStepUp(adminA, staffA, { title: 'Confirm the new transaction' });
  await expect(toasts(adminA).getByText(STAFF_MSG.proposed)).toBeVisible();
  await approveThroughApi(adminC, staffC, staffA);
  await adminA.reload();
  await adminA.getByLabel('Search').fill(account.email);

  const row = adminA.getByRole('main').getByRole('row').filter({ hasText: '0.01250000 BTC' });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Delete transaction/ }).click();
  const confirm = adminA.getByRole('dialog', { name: 'Delete transaction' });
  // No reason, no deletion: the form says why before any second factor is asked.
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByRole('alert')).toContainText('reason');
  await confirm.getByLabel('Reason').fill('Entered twice');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await snap(adminA, 'admin-transactions-delete-step-up');
  await confirmStepUp(adminA, staffA, { title: 'Confirm the deletion' });
  await expect(toasts(adminA).getByText(STAFF_MSG.proposed)).toBeVisible();
  await expect(row).toHaveCount(1);
  await approveThroughApi(adminC, staffC, staffA, 'transaction.delete');
  await adminA.reload();
  await adminA.getByLabel('Search').fill(account.email);
  await expect(row).toHaveCount(0);
});
