import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import {
  type Account,
  confirmStepUp,
  createCustomer,
  expectDashboard,
  scrollToTop,
  stepUpDialog,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// One customer: details refused, then saved, then offered on the bank transfer form.
test.describe.configure({ mode: 'serial' });

let page: Page;
let account: Account;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  account = await createCustomer(page, 'bank-details');
});

test.afterAll(async () => {
  await page.context().close();
});

const form = {
  fullName: () => page.getByLabel('Full name'),
  bsb: () => page.getByLabel('BSB', { exact: true }),
  accountNumber: () => page.getByLabel('Account number'),
  save: () => page.getByRole('button', { name: 'Save Bank Details' }),
};

function messages() {
  return page.getByRole('main').getByRole('alert');
}

async function openBankDetails(): Promise<void> {
  await page.goto('/bank-details');
  await expect(page.getByRole('heading', { level: 1, name: 'Bank Details' })).toBeVisible();
}

test('bad details are refused with a message per field, and nothing is saved', async () => {
  await openBankDetails();
  await form.save().click();
  await expect(messages()).toHaveText([
    'Full name is required',
    'BSB number is required',
    'Account number is required',
  ]);

  await form.fullName().fill('J');
  await form.bsb().fill('123');
  await form.accountNumber().fill('12345');
  await form.save().click();
  await expect(messages()).toHaveText([
    'Full name must be at least 2 characters',
    'BSB must be 6 digits',
    'Account number must be 6-10 digits',
  ]);
  // Refused on the page: no second factor is asked for what cannot be saved.
  await expect(stepUpDialog(page)).toHaveCount(0);
  await expect(form.bsb()).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'bank-details-errors');

  // Nothing was saved.
  await openBankDetails();
  await expect(form.fullName()).toHaveValue('');
  await expect(form.bsb()).toHaveValue('');
  await expect(form.accountNumber()).toHaveValue('');
});

test('the BSB is shown as 123-456 and the account number takes digits only', async () => {
  await openBankDetails();
  await form.bsb().pressSequentially('123456');
  await expect(form.bsb()).toHaveValue('123-456');
  await form.bsb().pressSequentially('7');
  await expect(form.bsb()).toHaveValue('123-456');
  await form.accountNumber().pressSequentially('12a-34 56');
  await expect(form.accountNumber()).toHaveValue('123456');
  await form.accountNumber().fill('123456789012');
  await expect(form.accountNumber()).toHaveValue('1234567890');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expectDashboard(page);
});

test('saved details are really saved, and fill the bank transfer form', async () => {
  await openBankDetails();
  await form.fullName().fill('Jane Citizen');
  await form.bsb().fill('062000');
  await form.accountNumber().fill('12345678');
  await form.save().click();
  // New payout details need a fresh second factor.
  await confirmStepUp(page, account, {
    title: 'Confirm your bank details',
    says: 'Bank transfers will be paid to Jane Citizen, BSB 062-000, account 12345678.',
  });
  await expect(toasts(page).getByText('Bank Details Saved', { exact: true })).toBeVisible();
  await expect(messages()).toHaveCount(0);

  // Read back from the server after a reload, not kept by the page.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Bank Details' })).toBeVisible();
  await expect(form.fullName()).toHaveValue('Jane Citizen');
  await expect(form.bsb()).toHaveValue('062-000');
  await expect(form.accountNumber()).toHaveValue('12345678');
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'bank-details-saved');

  // The bank transfer form offers them.
  await page.getByRole('link', { name: 'Back to Bank Transfer' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bank Transfer' })).toBeVisible();
  await expect(
    page.getByText('Saved details: Jane Citizen, BSB 062-000, account ending 5678'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Use saved details' }).click();
  await expect(page.getByLabel('Account name')).toHaveValue('Jane Citizen');
  await expect(page.getByLabel('Account number')).toHaveValue('12345678');
  await expect(page.getByLabel('BSB number / sort code')).toHaveValue('062-000');
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'bank-transfer-saved-details');
});
