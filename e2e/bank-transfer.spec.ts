import { STAFF_MSG } from '@coffer/shared';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, ownAddress, uniqueTxHash } from './support/app';
import {
  type Account,
  approveThroughApi,
  confirmStepUp,
  createCustomer,
  scrollToTop,
  sidebar,
  signInNewAdminAccount,
  stepUpDialog,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// A bank transfer is an AUD payout paid from one of the customer's balances (docs/product.md
// M11): held when requested, paid out when staff complete it, released when they reject it.
// One customer with 1 ETH and 0.001 BTC goes through it all; a second one has nothing to pay
// from. Two admins: any admin may complete a customer's request, one pays, one rejects.
// Serial: each step builds on the balances the one before left. The fake price service
// says ETH $3,000.00, BTC $65,000.00 and 1 AUD = 0.6543 USD.
test.describe.configure({ mode: 'serial' });

const REASON = "The account name does not match the bank's records.";
const BANK_REFERENCE = 'WBC 2026-1124/0042';

let contexts: BrowserContext[] = [];
let page: Page;
let account: Account;
let adminA: Page;
let adminB: Page;
let staffA: Account;
let staffB: Account;
/** Every bank transfer request the customers' browsers sent. */
const sent: string[] = [];

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await ownAddress(context);
  contexts.push(context);
  const created = await context.newPage();
  created.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/bank-transfers') {
      sent.push(request.postData() ?? '');
    }
  });
  return created;
}

test.beforeAll(async ({ browser }) => {
  // Several accounts, staff among them made with the CLI, before the first step.
  test.setTimeout(180_000);
  page = await newPage(browser);
  account = await createCustomer(page, 'bank-transfer');
  creditDeposit(account.email, 'ETH', '1', uniqueTxHash());
  creditDeposit(account.email, 'BTC', '0.001', uniqueTxHash());
  adminA = await newPage(browser);
  staffA = await signInNewAdminAccount(adminA, 'bank-admin-a');
  adminB = await newPage(browser);
  staffB = await signInNewAdminAccount(adminB, 'bank-admin-b');
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
  contexts = [];
});

function formOf(p: Page) {
  return {
    accountName: () => p.getByLabel('Account name'),
    accountNumber: () => p.getByLabel('Account number'),
    bsb: () => p.getByLabel('BSB number / sort code'),
    aud: () => p.getByLabel('Amount (AUD)'),
    usd: () => p.getByLabel('Amount (USD)'),
    payFrom: () => p.getByRole('group', { name: 'Pay from' }),
    eth: () => p.getByRole('radio', { name: /^ETH · Ethereum/ }),
    btc: () => p.getByRole('radio', { name: /^BTC · Bitcoin/ }),
    submit: () => p.getByRole('button', { name: 'Submit Bank Transfer Request' }),
  };
}
/** The customer's form; `page` is set in beforeAll, so it is looked up on each use. */
const form = {
  accountName: () => formOf(page).accountName(),
  accountNumber: () => formOf(page).accountNumber(),
  bsb: () => formOf(page).bsb(),
  aud: () => formOf(page).aud(),
  usd: () => formOf(page).usd(),
  payFrom: () => formOf(page).payFrom(),
  eth: () => formOf(page).eth(),
  btc: () => formOf(page).btc(),
  submit: () => formOf(page).submit(),
};

/** The form's messages, in the order they appear on the page. */
function messages(p: Page = page) {
  return p.getByRole('main').getByRole('alert');
}

async function openBankTransfer(p: Page = page): Promise<void> {
  await p.goto('/dashboard');
  await sidebar(p).getByRole('link', { name: 'Bank Transfer' }).click();
  await expect(p).toHaveURL(/\/bank-transfer$/);
  await expect(p.getByRole('heading', { level: 1, name: 'Bank Transfer' })).toBeVisible();
}

/** The dashboard row of an asset, as the customer reads it after a reload. */
async function dashboardRow(name: RegExp) {
  await page.goto('/dashboard');
  return page.getByRole('main').getByRole('link', { name });
}

async function openTransactions(admin: Page, tab: 'All transactions' | 'Pending withdrawals') {
  await sidebar(admin).getByRole('link', { name: 'Transactions' }).click();
  await expect(
    admin.getByRole('heading', { level: 1, name: 'Transaction Management' }),
  ).toBeVisible();
  await admin.getByRole('tab', { name: tab }).click();
  // The queue lists the oldest first, a page at a time: this customer's, searched for.
  if (tab === 'Pending withdrawals') {
    await admin
      .getByRole('tabpanel')
      .getByRole('searchbox', { name: 'Search' })
      .fill(account.email);
  }
}

test('a customer with nothing to pay from is told so on the form and cannot submit', async ({
  browser,
}) => {
  const empty = await newPage(browser);
  await createCustomer(empty, 'bank-transfer-empty');
  const f = formOf(empty);
  await openBankTransfer(empty);

  const nothing = f.payFrom();
  await expect(nothing).toContainText('Nothing to pay from');
  await expect(nothing).toContainText(
    'A bank transfer is paid out of one of your balances, and you have no balance available to pay it from.',
  );
  await expect(nothing.getByRole('radio')).toHaveCount(0);

  // Everything filled in: still nothing to send.
  await f.accountName().fill('Jane Citizen');
  await f.accountNumber().fill('12345678');
  await f.bsb().fill('062000');
  await f.aud().fill('100');
  await expect(f.submit()).toBeDisabled();
  await f.aud().press('Enter');
  await expect(empty).toHaveURL(/\/bank-transfer$/);
  await expectAccessible(empty);
  await scrollToTop(empty);
  await snap(empty, 'bank-transfer-nothing', ['laptop', 'mobile']);

  // The message leads to a deposit.
  await nothing.getByRole('link', { name: 'Make a Deposit' }).click();
  await expect(empty).toHaveURL(/\/dashboard\/deposit$/);
  expect(sent).toEqual([]);
});

test('the form says what is missing, field by field, and sends nothing until it is right', async () => {
  await openBankTransfer();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  // Nothing to send without an amount.
  await expect(form.submit()).toBeDisabled();

  // An amount of 0, everything else empty, no asset chosen: every rule at once.
  await form.aud().fill('0');
  await expect(form.submit()).toBeEnabled();
  await form.submit().click();
  await expect(messages()).toHaveText([
    'Account name is required',
    'Account number is required',
    'BSB number is required',
    'Amount must be greater than 0',
    'Please select the asset that pays for this transfer',
  ]);
  await expect(form.accountNumber()).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  // The account number takes digits only, the BSB shows as 123-456, as on the bank-details form.
  await form.accountNumber().pressSequentially('12a-34');
  await expect(form.accountNumber()).toHaveValue('1234');
  await form.accountName().fill('Jane Citizen');
  await form.bsb().fill('123');
  await form.submit().click();
  await expect(messages()).toHaveText([
    'Account number must be 6-10 digits',
    'BSB must be 6 digits',
    'Amount must be greater than 0',
    'Please select the asset that pays for this transfer',
  ]);
  await form.accountNumber().fill('12345678');
  await form.bsb().fill('0620001');
  await expect(form.bsb()).toHaveValue('062-000');
  await form.aud().fill('100');
  await form.submit().click();
  await expect(messages()).toHaveText(['Please select the asset that pays for this transfer']);
  // Refused on the page: no second factor is asked for what cannot be sent.
  await expect(stepUpDialog(page)).toHaveCount(0);

  // Nothing was sent; the history holds only the two deposits.
  expect(sent).toEqual([]);
  await page.goto('/dashboard/history');
  await expect(page.getByText('2 Transaction(s)', { exact: true })).toBeVisible();
});

test('each balance shows what the amount would take from it, at the live rates', async () => {
  await openBankTransfer();
  await expect(page.getByText('Rate: 1 AUD = 0.6543 USD', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Deposits will appear on your bank statement as "COFFER CUSTODY"'),
  ).toBeVisible();
  await expect(
    page.getByText('Bank transfers are processed within 1-3 business days.'),
  ).toBeVisible();
  await expect(
    page.getByText('If the transfer is rejected, the hold is released back to your balance.', {
      exact: false,
    }),
  ).toBeVisible();

  // Only what has a balance is offered: BTC and ETH, not the empty USDT wallets.
  await expect(form.payFrom().getByRole('radio')).toHaveCount(2);
  await expect(form.eth()).toHaveAccessibleName(/1\.000000 ETH available/);

  await form.aud().fill('100');
  await expect(form.usd()).toHaveValue('65.43');
  await expect(page.getByText('You request A$100 (about US$65.43).')).toBeVisible();
  // US$65.43 at $3,000.00 is 0.021810 ETH; at $65,000.00 it is 0.00100662 BTC, more than 0.001.
  await expect(form.eth()).toHaveAccessibleName(/Takes 0\.021810 ETH · 1\.000000 ETH available/);
  await expect(form.eth()).toBeEnabled();
  await expect(form.btc()).toHaveAccessibleName(
    /Not enough: takes 0\.00100662 BTC, 0\.00100000 BTC available/,
  );
  await expect(form.btc()).toBeDisabled();

  // Typed in USD, the other way round.
  await form.usd().fill('32.72');
  await expect(form.aud()).toHaveValue('50.01');
  await form.aud().fill('50');
  await expect(form.btc()).toHaveAccessibleName(/Takes 0\.00050339 BTC/);
  await expect(form.btc()).toBeEnabled();

  // More than 1 ETH is worth: ETH is short too.
  await form.aud().fill('5000');
  await expect(form.eth()).toHaveAccessibleName(/Not enough: takes 1\.090500 ETH/);
  await expect(form.eth()).toBeDisabled();

  // What will be held, and at which rates, before anything is sent.
  await form.aud().fill('100');
  await form.eth().check();
  await expect(page.getByText('Held from your ETH: 0.021810 ETH', { exact: true })).toBeVisible();
  await expect(page.getByText('At 1 AUD = 0.6543 USD and 1 ETH = $3,000.00.')).toBeVisible();

  // Clearing one amount clears both, and there is nothing to send.
  await form.usd().fill('');
  await expect(form.aud()).toHaveValue('');
  await expect(form.submit()).toBeDisabled();
  await form.aud().fill('100');
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'bank-transfer', ['laptop', 'mobile']);
  expect(sent).toEqual([]);
});

test('a payout paid from ETH is held: pending in the history, the ETH on hold', async () => {
  await openBankTransfer();
  await form.accountName().fill('Jane Citizen');
  await form.accountNumber().fill('12345678');
  await form.bsb().fill('062000');
  await form.aud().fill('100');
  await form.eth().check();
  await expect(page.getByText('Held from your ETH: 0.021810 ETH', { exact: true })).toBeVisible();
  await form.submit().click();
  // A payout leaves only with a fresh second factor.
  await confirmStepUp(page, account, {
    title: 'Confirm your bank transfer',
    says: 'A$100 to Jane Citizen, BSB 062-000, account 12345678.',
  });

  await expect(
    toasts(page).getByText('Bank transfer request submitted successfully'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page.getByText('3 Transaction(s)', { exact: true })).toBeVisible();
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0] ?? '{}')).toMatchObject({
    assetId: 'ETH',
    amountAud: '100',
    stepUp: { code: expect.any(String) },
  });

  const transfer = page.getByRole('article', { name: /^Bank Transfer, / });
  await expect(transfer.getByText('pending', { exact: true })).toBeVisible();
  await expect(transfer).toContainText('Paid from ETH');
  // The AUD paid out, the ETH held for it, its USD value and the rates it was converted at.
  await expect(transfer).toContainText('−A$100.00');
  await expect(transfer).toContainText('0.021810 ETH held');
  await expect(transfer).toContainText('≈ $65.43');
  await expect(transfer).toContainText('Rates:1 AUD = 0.6543 USD · 1 ETH = $3,000.00');
  await expectAccessible(page);
  await snap(page, 'history-bank-pending', ['laptop', 'mobile']);

  // The wallet: the balance is whole, part of it on hold; the rest is what can be used.
  const ether = await dashboardRow(/^Ethereum ETH/);
  await expect(ether).toContainText('1.000000 ETH');
  await expect(ether).toContainText('0.021810 on hold');
  await page.goto('/dashboard/asset/eth');
  await expect(page.getByRole('main')).toContainText(
    '0.978190 available, 0.021810 on hold for withdrawals and bank transfers',
  );
  await openBankTransfer();
  await expect(form.eth()).toHaveAccessibleName(/0\.978190 ETH available/);
});

test('another admin completes it with a bank reference, checked as it is typed', async () => {
  await openTransactions(adminB, 'Pending withdrawals');
  const row = adminB
    .getByRole('main')
    .getByRole('row')
    .filter({ hasText: account.email })
    .filter({ hasText: 'A$100.00' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('from ETH');
  await expect(row).toContainText('0.021810 ETH held');
  await expect(row).toContainText('≈ $65.43');
  await expect(row).toContainText('1 AUD = 0.6543 USD · 1 ETH = $3,000.00');
  await expect(row).toContainText('Jane Citizen');
  await expectAccessible(adminB);
  await snap(adminB, 'admin-pending-bank-payout', ['laptop', 'mobile']);

  await row.getByRole('button', { name: 'Complete' }).click();
  const dialog = adminB.getByRole('dialog', { name: 'Complete bank transfer' });
  await expect(dialog).toContainText('A$100.00 (0.021810 ETH held)');
  await dialog.getByRole('button', { name: 'Mark as completed' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Enter the bank reference of the payout.');
  // The shared rule, as the admin types: a reference needs a digit and 6 characters.
  const reference = dialog.getByLabel('Bank reference');
  await reference.fill('paid');
  await expect(dialog.getByRole('alert')).toHaveText(
    'Enter the bank reference of the payout: 6 to 35 letters, digits, spaces, hyphens or slashes, with at least one digit.',
  );
  await expect(reference).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Mark as completed' }).click();
  await expect(dialog).toBeVisible();
  await reference.fill(BANK_REFERENCE);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expectAccessible(adminB);
  await dialog.getByRole('button', { name: 'Mark as completed' }).click();
  await confirmStepUp(adminB, staffB, { title: 'Confirm the bank transfer' });
  // Proposed: admin A, the second person, approves the completion.
  await expect(toasts(adminB).getByText(STAFF_MSG.proposed)).toBeVisible();
  await expect(row).toHaveCount(1);
  await approveThroughApi(adminA, staffA, staffB, 'payout.complete');
  await adminB.reload();
  await expect(row).toHaveCount(0);

  // The details say what was paid out of what, at which rates.
  await adminB.getByRole('tab', { name: 'All transactions' }).click();
  await adminB.getByLabel('Search').fill(account.email);
  const listed = adminB
    .getByRole('main')
    .getByRole('row')
    .filter({ hasText: 'Bank transfer' })
    .filter({ hasText: 'Completed' });
  await expect(listed).toHaveCount(1);
  await listed.getByRole('button', { name: /^View transaction/ }).click();
  const details = adminB.getByRole('dialog', { name: 'Transaction Details' });
  await expect(details).toContainText('Paid fromETH');
  await expect(details).toContainText('0.021810 ETH paid out');
  await expect(details).toContainText('AUD rate1 AUD = 0.6543 USD');
  await expect(details).toContainText('ETH price1 ETH = $3,000.00');
  await expect(details).toContainText(BANK_REFERENCE);
  await snap(adminB, 'admin-bank-payout-details', ['laptop']);
  await details.getByRole('button', { name: 'Close' }).click();
});

test("the customer's ETH is debited by the held amount once it is paid", async () => {
  await page.goto('/dashboard/history');
  const transfer = page.getByRole('article', { name: /^Bank Transfer, / });
  await expect(transfer.getByText('completed', { exact: true })).toBeVisible();
  await expect(transfer).toContainText('−0.021810 ETH');
  await expect(transfer).not.toContainText('held');
  await expect(transfer).toContainText(`Bank reference:${BANK_REFERENCE}`);

  const ether = await dashboardRow(/^Ethereum ETH/);
  await expect(ether).toContainText('0.978190 ETH');
  await expect(ether).not.toContainText('on hold');
  await page.goto('/dashboard/asset/eth');
  await expect(page.getByRole('main')).toContainText('0.978190 ETH');
});

test('a rejected payout reads Rejected with the reason, and its hold is back in the balance', async () => {
  await openBankTransfer();
  await form.accountName().fill('Jane Citizen');
  await form.accountNumber().fill('12345678');
  await form.bsb().fill('062000');
  await form.aud().fill('50');
  await form.btc().check();
  await expect(page.getByText('Held from your BTC: 0.00050339 BTC', { exact: true })).toBeVisible();
  await form.submit().click();
  await confirmStepUp(page, account, { title: 'Confirm your bank transfer', says: 'A$50 to' });
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  const bitcoin = await dashboardRow(/^Bitcoin BTC/);
  await expect(bitcoin).toContainText('0.00050339 on hold');

  await openTransactions(adminA, 'Pending withdrawals');
  const row = adminA
    .getByRole('main')
    .getByRole('row')
    .filter({ hasText: account.email })
    .filter({ hasText: 'A$50.00' });
  await expect(row).toContainText('0.00050339 BTC held');
  await row.getByRole('button', { name: 'Reject' }).click();
  const dialog = adminA.getByRole('dialog', { name: 'Reject request' });
  await dialog.getByLabel('Reason (shown to the customer)').fill(REASON);
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await confirmStepUp(adminA, staffA, { title: 'Confirm the rejection' });
  await expect(toasts(adminA).getByText('Request rejected')).toBeVisible();
  await expect(row).toHaveCount(0);
  await adminA.getByRole('tab', { name: 'All transactions' }).click();
  await adminA.getByLabel('Search').fill(account.email);
  await expect(
    adminA.getByRole('main').getByRole('row').filter({ hasText: '0.00050339 BTC' }),
  ).toContainText('Rejected');

  await page.goto('/dashboard/history');
  await expect(page.getByText('4 Transaction(s)', { exact: true })).toBeVisible();
  const rejected = page.getByRole('article', { name: /^Bank Transfer, / }).first();
  await expect(rejected.getByText('rejected', { exact: true })).toBeVisible();
  await expect(rejected.getByText('failed', { exact: true })).toHaveCount(0);
  await expect(rejected).toContainText(`Rejected because:${REASON}`);
  await expect(rejected).toContainText(
    'Not paid: the 0.00050339 BTC held for it was returned to your balance.',
  );
  // Struck through, with no minus sign: no money left.
  await expect(rejected.locator('s').first()).toHaveText('A$50.00');
  await expect(rejected).not.toContainText('−A$50.00');
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'history-bank-rejected', ['laptop', 'mobile']);

  const back = await dashboardRow(/^Bitcoin BTC/);
  await expect(back).toContainText('0.00100000 BTC');
  await expect(back).not.toContainText('on hold');
});
