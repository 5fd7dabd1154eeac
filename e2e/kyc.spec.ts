import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { jpegWithGps, realPng } from '../apps/server/test/image-fixtures';
import { expectAccessible, mailTo, ownAddress } from './support/app';
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

// A customer and an admin side by side: submit, reject with notes, resubmit, approve.
test.describe.configure({ mode: 'serial' });

let customerContext: BrowserContext;
let adminContext: BrowserContext;
let customer: Page;
let admin: Page;
let account: Account;
/** The reviewer, with the backup codes their step-ups spend. */
let adminAccount: Account;

const FRONT_LABEL = "Front of Driver's Licence or Passport (required)";
const BACK_LABEL = "Back of Driver's Licence (optional)";
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

function submitButton(page: Page) {
  return page.getByRole('button', { name: 'Submit KYC Verification' });
}

async function expectToast(page: Page, title: string, description: string): Promise<void> {
  const region = toasts(page);
  await expect(region.getByText(title, { exact: true }).last()).toBeVisible();
  await expect(region.getByText(description, { exact: true }).last()).toBeVisible();
}

function rowOf(page: Page, email: string) {
  return page.getByRole('main').getByRole('row').filter({ hasText: email });
}

test.beforeAll(async ({ browser }) => {
  customerContext = await browser.newContext();
  await ownAddress(customerContext);
  customer = await customerContext.newPage();
  account = await createCustomer(customer, 'kyc');

  adminContext = await browser.newContext({ acceptDownloads: true });
  await ownAddress(adminContext);
  admin = await adminContext.newPage();
  adminAccount = await signInNewAdminAccount(admin, 'kyc-admin');
});

test.afterAll(async () => {
  await customerContext.close();
  await adminContext.close();
});

test('a customer submits KYC: checks in order, then the success card and the dashboard', async () => {
  await sidebar(customer).getByRole('link', { name: 'Verification' }).click();
  await expect(customer).toHaveURL(/\/kyc$/);
  await expect(
    customer.getByRole('heading', { level: 1, name: 'Identity Verification (KYC)' }),
  ).toBeVisible();
  // No dashboard layout on this page.
  await expect(sidebar(customer)).toHaveCount(0);
  await expectAccessible(customer);
  await snap(customer, 'kyc-form');

  // The form's checks, in the specified order.
  await submitButton(customer).click();
  await expectToast(customer, 'Validation Error', 'Please enter your full name.');
  await customer.getByLabel('Full Name').fill('Ada Lovelace');
  await submitButton(customer).click();
  await expectToast(customer, 'Validation Error', 'Please enter your phone number.');
  await customer.getByLabel('Phone Number').fill('+61 400 123 456');
  await submitButton(customer).click();
  await expectToast(customer, 'Validation Error', 'Please enter your address.');
  await customer.getByLabel('Address').fill('12 Harbour St\nSydney NSW 2000');
  await submitButton(customer).click();
  await expectToast(customer, 'Validation Error', 'Please upload the front of your ID document.');

  // A web page renamed to .png passes the browser's check by name but not the server's by content.
  await customer.getByLabel(FRONT_LABEL, { exact: true }).setInputFiles({
    name: 'licence.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'),
  });
  await submitButton(customer).click();
  await expectToast(customer, 'Invalid file type', 'Please upload JPEG, PNG, or PDF files only.');
  // A text file is refused before anything is sent.
  await customer.getByLabel(FRONT_LABEL, { exact: true }).setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hello'),
  });
  await submitButton(customer).click();
  await expectToast(customer, 'Invalid file type', 'Please upload JPEG, PNG, or PDF files only.');

  await customer.getByLabel(FRONT_LABEL, { exact: true }).setInputFiles({
    name: 'licence-front.jpg',
    mimeType: 'image/jpeg',
    buffer: jpegWithGps(),
  });
  // A phone number that is not one is refused, and the form says what one looks like.
  await customer.getByLabel('Phone Number').fill('call me: 0400');
  await submitButton(customer).click();
  await expectToast(
    customer,
    'Validation Error',
    'Please enter a phone number of 6 to 20 digits; only spaces, +, - and brackets may go between them.',
  );
  await customer.getByLabel('Phone Number').fill('+61 400 123 456');
  await customer.getByLabel(BACK_LABEL, { exact: true }).setInputFiles({
    name: 'licence-back.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(customer.getByRole('img', { name: 'Preview of licence-front.jpg' })).toBeVisible();
  await expect(customer.getByText('licence-back.pdf')).toBeVisible();
  await expectAccessible(customer);
  await snap(customer, 'kyc-form-filled');

  await submitButton(customer).click();
  await expect(
    customer.getByRole('heading', { level: 1, name: 'KYC Submitted Successfully' }),
  ).toBeVisible();
  await expect(
    customer.getByText('Thank you for submitting your KYC. We will review it shortly.').first(),
  ).toBeVisible();
  await expect(customer).toHaveURL(/\/dashboard$/, { timeout: 10_000 });

  // Back on /kyc: blocked while the submission is pending.
  await customer.goto('/kyc');
  const submitted = customer.getByRole('heading', { level: 1, name: 'KYC Already Submitted' });
  await expect(submitted).toBeVisible();
  // The card's padding above its first line (the shield over the heading): nothing sits on
  // the card's border.
  const shield = submitted.locator('xpath=preceding-sibling::*[1]');
  expect(await textInsetFromBorder(shield)).toBeGreaterThanOrEqual(24);
  await expect(customer.getByText('Pending review')).toBeVisible();
  await expect(customer.getByRole('link', { name: 'Back to Dashboard' }).last()).toBeVisible();
  await expectAccessible(customer);
  await snap(customer, 'kyc-already-submitted');
});

test('the admin reviews the documents and rejects with notes', async () => {
  await sidebar(admin).getByRole('link', { name: 'KYC Review' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/kyc$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'KYC Submissions' })).toBeVisible();
  const row = rowOf(admin, account.email);
  await expect(row).toContainText('Ada Lovelace');
  await expect(row).toContainText('+61 400 123 456');
  await expect(row).toContainText('Pending');
  // How long it has waited: just sent.
  await expect(row.getByRole('cell', { name: /^(< 1 min|\d+ min)$/ })).toBeVisible();
  await expectAccessible(admin);
  await snap(admin, 'admin-kyc-list');

  await row.getByRole('button', { name: 'Review KYC submission of Ada Lovelace' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Review KYC Submission' });
  await expect(dialog).toContainText('12 Harbour St');
  // The front photo is previewed from the authenticated endpoint, metadata stripped and intact.
  const preview = dialog.getByRole('img', { name: 'Front Document of Ada Lovelace' });
  await expect(preview).toBeVisible();
  await expect
    .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  const download = admin.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download back document' }).click();
  expect((await download).suggestedFilename()).toBe('licence-back.pdf');
  await expectAccessible(admin);
  await snap(admin, 'admin-kyc-review');

  await dialog.getByLabel('Review Notes').fill('The photo of your licence is blurry.');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  // A decision is a staff write: the reviewer's fresh second factor confirms it.
  await confirmStepUp(admin, adminAccount, {
    title: 'Confirm the rejection',
    says: account.email,
  });
  await expectToast(
    admin,
    'Status Updated',
    'KYC submission has been rejected. User can now resubmit.',
  );
  await expect(dialog).toHaveCount(0);
  // Decided, it leaves the queue of what waits for review; every status shows it again.
  await expect(row).toHaveCount(0);
  await admin.getByLabel('Status').selectOption('all');
  await expect(admin).toHaveURL(/\/dashboard\/admin\/kyc\?status=all$/);
  await expect(row).toContainText('Rejected');

  const mail = await mailTo(account.email);
  expect(mail).toContain('was not approved');
  expect(mail).toContain('The photo of your licence is blurry.');
});

test('the customer sees the rejection and resubmits', async () => {
  await customer.goto('/kyc');
  await expect(customer.getByText('Rejected', { exact: true })).toBeVisible();
  await expect(customer.getByText('The photo of your licence is blurry.')).toBeVisible();
  await expect(customer.getByLabel('Full Name')).toHaveValue('Ada Lovelace');
  await expectAccessible(customer);
  await snap(customer, 'kyc-resubmit');

  await customer.getByLabel(FRONT_LABEL, { exact: true }).setInputFiles({
    name: 'licence-front-sharp.png',
    mimeType: 'image/png',
    buffer: realPng(),
  });
  await submitButton(customer).click();
  await expect(
    customer.getByRole('heading', { level: 1, name: 'KYC Submitted Successfully' }),
  ).toBeVisible();
});

test('the admin approves the resubmission; both screens follow live', async () => {
  // The admin's list was open all along: the resubmission shows without a reload.
  const row = rowOf(admin, account.email);
  await expect(row).toContainText('Pending');
  // The customer watches the status page while the admin decides.
  await customer.goto('/kyc');
  const submitted = customer.getByRole('heading', { level: 1, name: 'KYC Already Submitted' });
  await expect(submitted).toBeVisible();
  // The card's padding above its first line (the shield over the heading): nothing sits on
  // the card's border.
  const shield = submitted.locator('xpath=preceding-sibling::*[1]');
  expect(await textInsetFromBorder(shield)).toBeGreaterThanOrEqual(24);
  await expect(customer.getByText('Pending review')).toBeVisible();

  await row.getByRole('button', { name: 'Review KYC submission of Ada Lovelace' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Review KYC Submission' });
  await expect(dialog.getByText('No back document was uploaded.')).toBeVisible();
  await expect(dialog.getByText('licence-front-sharp.png')).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'Front Document of Ada Lovelace' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await confirmStepUp(admin, adminAccount, { title: 'Confirm the approval' });
  await expectToast(admin, 'Status Updated', 'KYC submission has been approved');
  await expect(row).toContainText('Approved');
  expect(await mailTo(account.email)).toContain('has been approved');

  await expect(customer.getByText('Approved', { exact: true })).toBeVisible();
  await expect(customer.getByText('Your identity has been verified.')).toBeVisible();
  await expectAccessible(customer);
  await snap(customer, 'kyc-approved');
});
