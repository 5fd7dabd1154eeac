import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import { createCustomer, scrollToTop, sidebar, toasts } from './support/flows';
import { snap } from './support/shots';

// One customer: the form's checks and conversions first, then one real request.
test.describe.configure({ mode: 'serial' });

let page: Page;
/** Every bank transfer request the browser sent. */
const sent: string[] = [];

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/bank-transfers') {
      sent.push(request.postData() ?? '');
    }
  });
  await createCustomer(page, 'bank-transfer');
});

test.afterAll(async () => {
  await page.context().close();
});

const form = {
  accountName: () => page.getByLabel('Account name'),
  accountNumber: () => page.getByLabel('Account number'),
  bsb: () => page.getByLabel('BSB number / sort code'),
  aud: () => page.getByLabel('Amount (AUD)'),
  usd: () => page.getByLabel('Amount (USD)'),
  submit: () => page.getByRole('button', { name: 'Submit Bank Transfer Request' }),
};

/** The form's messages, in the order they appear on the page. */
function messages() {
  return page.getByRole('main').getByRole('alert');
}

async function openBankTransfer(): Promise<void> {
  await page.goto('/dashboard');
  await sidebar(page).getByRole('link', { name: 'Bank Transfer' }).click();
  await expect(page).toHaveURL(/\/bank-transfer$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bank Transfer' })).toBeVisible();
}

test('the form says what is missing, field by field, and sends nothing until it is right', async () => {
  await openBankTransfer();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  // Nothing to send without an amount.
  await expect(form.submit()).toBeDisabled();

  // An amount of 0, everything else empty: every rule at once.
  await form.aud().fill('0');
  await expect(form.submit()).toBeEnabled();
  await form.submit().click();
  await expect(messages()).toHaveText([
    'Account name is required',
    'Account number is required',
    'BSB number must be at least 6 characters',
    'Amount must be greater than 0',
  ]);
  await expect(form.accountNumber()).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'bank-transfer-errors');

  // Fixed one at a time, in the specification's order.
  await form.accountNumber().fill('12345678');
  await form.submit().click();
  await expect(messages()).toHaveText([
    'Account name is required',
    'BSB number must be at least 6 characters',
    'Amount must be greater than 0',
  ]);
  await form.accountName().fill('Jane Citizen');
  await form.bsb().fill('123');
  await form.submit().click();
  await expect(messages()).toHaveText([
    'BSB number must be at least 6 characters',
    'Amount must be greater than 0',
  ]);
  // The field holds 6 characters at most.
  await form.bsb().fill('0620001');
  await expect(form.bsb()).toHaveValue('062000');
  await form.submit().click();
  await expect(messages()).toHaveText(['Amount must be greater than 0']);

  // Nothing was sent; the history is still empty.
  expect(sent).toEqual([]);
  await page.goto('/dashboard/history');
  await expect(page.getByText('No Transactions Yet', { exact: true })).toBeVisible();
});

test('the AUD and USD amounts follow each other at the live rate', async () => {
  await openBankTransfer();
  await expect(page.getByText('Rate: 1 AUD = 0.6543 USD', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Deposits will appear on your bank statement as "COFFER CUSTODY"'),
  ).toBeVisible();
  await expect(
    page.getByText('Bank transfers are processed within 1-3 business days.'),
  ).toBeVisible();

  await form.aud().fill('100');
  await expect(form.usd()).toHaveValue('65.43');
  await expect(page.getByText('You request A$100 (about US$65.43).')).toBeVisible();

  await form.usd().fill('130.86');
  await expect(form.aud()).toHaveValue('200.00');
  await expect(page.getByText('You request A$200.00 (about US$130.86).')).toBeVisible();

  // Clearing one clears both, and there is nothing to send.
  await form.usd().fill('');
  await expect(form.aud()).toHaveValue('');
  await expect(form.submit()).toBeDisabled();
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'bank-transfer');
});

test('a valid request is listed in the history as a pending bank transfer', async () => {
  await openBankTransfer();
  await form.accountName().fill('Jane Citizen');
  await form.accountNumber().fill('12345678');
  await form.bsb().fill('062000');
  await form.aud().fill('100');
  await expect(form.usd()).toHaveValue('65.43');
  await form.submit().click();

  await expect(
    toasts(page).getByText('Bank transfer request submitted successfully'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page.getByText('1 Transaction(s)', { exact: true })).toBeVisible();
  const transfer = page.getByRole('article', { name: /^Bank Transfer, / });
  await expect(transfer.getByText('pending', { exact: true })).toBeVisible();
  // The AUD amount paid out, and what it is worth in USD at the rate of the request.
  await expect(transfer).toContainText('A$100.00');
  await expect(transfer).toContainText('≈ $65.43');
  expect(sent).toHaveLength(1);
});
