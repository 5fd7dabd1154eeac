import { STAFF_MSG } from '@coffer/shared';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, ownAddress, uniqueTxHash } from './support/app';
import { newBitcoinAddress } from './support/db';
import {
  type Account,
  approveThroughApi,
  confirmStepUp,
  createCustomer,
  sidebar,
  signInNewAdminAccount,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// One customer and one admin, side by side: what the admin proposes and a second staff
// member approves, the customer sees.
test.describe.configure({ mode: 'serial' });

let customerContext: BrowserContext;
let adminContext: BrowserContext;
let customer: Page;
let admin: Page;
let account: Account;
let staff: Account;
let approverContext: BrowserContext;
let approverPage: Page;
let approver: Account;

async function pickCustomer(page: Page, label: string, email: string): Promise<void> {
  const box = page.getByRole('combobox', { name: label });
  await box.fill(email);
  await page.getByRole('option', { name: new RegExp(email.replace(/[.+]/g, '\\$&')) }).click();
}

test.beforeAll(async ({ browser }) => {
  // Several accounts, staff among them made with the CLI, before the first step.
  test.setTimeout(180_000);
  customerContext = await browser.newContext();
  await ownAddress(customerContext);
  customer = await customerContext.newPage();
  account = await createCustomer(customer, 'wallets');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());

  adminContext = await browser.newContext({
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await ownAddress(adminContext);
  admin = await adminContext.newPage();
  staff = await signInNewAdminAccount(admin, 'wallet-admin');

  // Two people for every money and address change: the second one approves.
  approverContext = await browser.newContext();
  await ownAddress(approverContext);
  approverPage = await approverContext.newPage();
  approver = await signInNewAdminAccount(approverPage, 'wallet-approver');
});

test.afterAll(async () => {
  await customerContext.close();
  await adminContext.close();
  await approverContext.close();
});

test('an admin proposes a balance edit with a reason; once approved, the customer sees the adjustment and the balance', async () => {
  await sidebar(admin).getByRole('link', { name: 'Wallet Management' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/wallet-management$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Wallet Management' })).toBeVisible();
  await expect(admin.getByText('Select a user to manage their wallets')).toBeVisible();
  await expectAccessible(admin);
  await snap(admin, 'admin-wallets-empty');

  await pickCustomer(admin, 'Select User', account.email);
  const main = admin.getByRole('main');
  // A customer without a name is managed by their e-mail, said once.
  await expect(main.getByText(`Managing ${account.email}`, { exact: true })).toBeVisible();
  const btc = main.getByRole('row', { name: 'BTC Bitcoin Network wallet' });
  await expect(btc).toContainText('0.50000000 BTC');
  await expect(main.getByText('No deposit addresses found for this user.')).toBeVisible();

  // One edit at a time: while the balance is edited, no other edit can start.
  await btc.getByRole('button', { name: 'Edit BTC Bitcoin Network balance' }).click();
  const field = admin.getByLabel('New balance (BTC)');
  await expect(field).toHaveValue('0.5');
  await expect(
    main.getByRole('button', { name: 'Edit ETH Ethereum Network address' }),
  ).toBeDisabled();

  // Refused input changes nothing and says why.
  await field.fill('-1');
  await admin.getByLabel('Reason (the customer sees it)').fill('Goodwill credit, ticket 1234');
  await admin.getByRole('button', { name: 'Save balance' }).click();
  await expect(main.getByText('Please enter a valid positive number')).toBeVisible();

  await field.fill('0.75');
  await expectAccessible(admin);
  await snap(admin, 'admin-wallets-balance-edit');
  await admin.getByRole('button', { name: 'Save balance' }).click();
  // A balance edit moves money: the admin confirms the proposal with their own second factor.
  await expect(admin.getByRole('dialog', { name: 'Confirm the balance edit' })).toContainText(
    'Propose setting this BTC wallet to 0.75 BTC',
  );
  await confirmStepUp(admin, staff, { title: 'Confirm the balance edit' });
  await expect(toasts(admin)).toContainText(STAFF_MSG.proposed);
  await expect(field).toHaveCount(0);
  // Proposed, not applied: the balance is as it was until a second staff member approves.
  await expect(btc).toContainText('0.50000000 BTC');
  await approveThroughApi(approverPage, approver, staff, 'wallet.balance.adjust');
  // The wallets are read again every 5 s.
  await expect(btc).toContainText('0.75000000 BTC', { timeout: 10_000 });
  await snap(admin, 'admin-wallets');

  // The customer: the adjustment with its reason in the history, the new balance on the dashboard.
  await customer.goto('/dashboard/history');
  const adjustment = customer.getByRole('article', { name: /^Adjustment/ });
  await expect(adjustment).toBeVisible();
  await expect(adjustment).toContainText('+0.25');
  await expect(adjustment).toContainText('Goodwill credit, ticket 1234');
  await customer.goto('/dashboard');
  await expect(
    customer.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ }),
  ).toContainText('0.75000000 BTC');
});

test('an admin adds a deposit address for a customer, who sees it on the deposit page', async () => {
  await sidebar(admin).getByRole('link', { name: 'Deposit Addresses' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/addresses$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Deposit Addresses' })).toBeVisible();

  await admin.getByRole('button', { name: 'Add Address' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Add Deposit Address' });
  await dialog.getByRole('button', { name: 'Add Address' }).click();
  await expect(toasts(admin)).toContainText('Please fill all required fields.');

  const address = newBitcoinAddress();
  await pickCustomer(admin, 'Customer', account.email);
  await dialog.getByLabel('Asset').selectOption('BTC');
  await expect(dialog.getByLabel('Network')).toHaveValue('bitcoin');
  // Networks are offered by name.
  await expect(dialog.getByLabel('Network').locator('option:checked')).toHaveText(
    'Bitcoin Network',
  );
  await expect(dialog.getByLabel('Network').locator('option')).toContainText(['ERC-20', 'TRC-20']);
  await dialog.getByLabel('Address').fill('bc1-not-an-address');
  await dialog.getByRole('button', { name: 'Add Address' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Invalid Bitcoin address format');
  await dialog.getByLabel('Address').fill(address);
  await expectAccessible(admin);
  await snap(admin, 'admin-addresses-add');
  await dialog.getByRole('button', { name: 'Add Address' }).click();
  // Where a customer's money lands: proposed with the admin's step-up, applied on approval.
  await confirmStepUp(admin, staff, { title: 'Confirm the new address' });
  await expect(toasts(admin)).toContainText(STAFF_MSG.proposed);
  await expect(dialog).toHaveCount(0);
  await approveThroughApi(approverPage, approver, staff, 'deposit-address.create');

  await admin.getByLabel('Search deposit addresses').fill(account.email);
  const row = admin.getByRole('row').filter({ hasText: address });
  await expect(row).toContainText('BTC');
  await expect(row).toContainText('Active');
  await expect(row.getByRole('cell', { name: 'Bitcoin Network', exact: true })).toBeVisible();
  await expect(row).not.toContainText('bitcoin');
  await expectAccessible(admin);
  await snap(admin, 'admin-addresses');

  // Copy feedback lasts 2 s.
  await row.getByRole('button', { name: 'Copy BTC address' }).click();
  await expect(row.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(address);
  await expect(row.getByRole('button', { name: 'Copy BTC address' })).toBeVisible();

  await customer.goto('/dashboard/deposit');
  const card = customer.getByRole('group', { name: 'BTC' });
  await expect(card.getByText(address, { exact: true })).toBeVisible();

  // The wallet screen lists it for the customer too.
  await sidebar(admin).getByRole('link', { name: 'Wallet Management' }).click();
  await pickCustomer(admin, 'Select User', account.email);
  await expect(admin.getByRole('main').getByText(address)).toBeVisible();
  const listed = admin.getByRole('main').getByRole('row').filter({ hasText: address });
  await expect(listed.getByRole('cell', { name: 'Bitcoin Network', exact: true })).toBeVisible();
  await expect(
    listed.getByRole('button', { name: 'Edit BTC Bitcoin Network deposit address' }),
  ).toBeVisible();
});

test('an admin proposes deleting an address; once approved, the customer no longer sees it', async () => {
  await sidebar(admin).getByRole('link', { name: 'Deposit Addresses' }).click();
  await admin.getByLabel('Search deposit addresses').fill(account.email);
  const row = admin.getByRole('row').filter({ hasText: 'BTC' }).first();
  await row.getByRole('button', { name: /^Delete BTC address/ }).click();
  const confirm = admin.getByRole('dialog', { name: 'Delete Deposit Address' });
  await expect(confirm).toContainText('Are you sure you want to delete this deposit address?');
  await expect(confirm).toContainText(`BTC · Bitcoin Network · ${account.email}`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await confirmStepUp(admin, staff, { title: 'Confirm the deletion' });
  await expect(toasts(admin)).toContainText(STAFF_MSG.proposed);
  // Still there until a second staff member approves its deletion.
  await expect(row).toBeVisible();
  await approveThroughApi(approverPage, approver, staff, 'deposit-address.delete');
  await admin.reload();
  await admin.getByLabel('Search deposit addresses').fill(account.email);
  await expect(admin.getByText('No deposit addresses found', { exact: true })).toBeVisible();

  await customer.goto('/dashboard/deposit');
  await expect(customer.getByText('No deposit addresses available', { exact: true })).toBeVisible();
});
