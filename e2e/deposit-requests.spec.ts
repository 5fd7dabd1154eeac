import { randomBytes } from 'node:crypto';
import { STAFF_MSG } from '@coffer/shared';
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible, mailTo, ownAddress } from './support/app';
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

// This server watches no chain: a customer asks for an address, staff assign one.
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
/** An ERC-20 address nobody has been given yet (lower case: no checksum to get wrong). */
const address = `0x${randomBytes(20).toString('hex')}`;

function requestSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Request an address' });
}

function requestItem(page: Page, network: string): Locator {
  return requestSection(page).getByRole('listitem').filter({ hasText: network });
}

test.beforeAll(async ({ browser }) => {
  // Several accounts, staff among them made with the CLI, before the first step.
  test.setTimeout(180_000);
  customerContext = await browser.newContext();
  customer = await customerContext.newPage();
  account = await createCustomer(customer, 'address-request');

  adminContext = await browser.newContext();
  await ownAddress(adminContext);
  admin = await adminContext.newPage();
  staff = await signInNewAdminAccount(admin, 'address-staff');

  // An address decides where money lands: a second staff member approves it.
  approverContext = await browser.newContext();
  await ownAddress(approverContext);
  approverPage = await approverContext.newPage();
  approver = await signInNewAdminAccount(approverPage, 'address-approver');
});

test.afterAll(async () => {
  await customerContext.close();
  await adminContext.close();
  await approverContext.close();
});

test('a customer asks for an address no chain gives; the page then says it is waiting', async () => {
  // Staff have their list open: the request appears on it as it is made.
  await sidebar(admin).getByRole('link', { name: 'Deposit Addresses' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/addresses$/);
  await customer.goto('/dashboard/deposit');
  await expect(customer.getByText('No deposit addresses available', { exact: true })).toBeVisible();
  await expect(
    customer.getByText('Request one below for the asset you want to deposit.'),
  ).toBeVisible();
  const section = requestSection(customer);
  await expect(section.getByRole('heading', { name: 'Request an address' })).toBeVisible();
  await expect(section.getByRole('listitem')).toHaveCount(4);
  for (const name of ['BTC', 'ETH', 'USDT (ERC-20)', 'USDT (TRC-20)']) {
    await expect(
      section.getByRole('button', { name: `Request a ${name} deposit address` }),
    ).toBeVisible();
  }
  await expectAccessible(customer);
  await snap(customer, 'deposit-request');

  await section.getByRole('button', { name: 'Request a USDT (ERC-20) deposit address' }).click();
  await expect(toasts(customer)).toContainText('Address requested');
  const waiting = requestItem(customer, 'ERC-20');
  await expect(waiting).toContainText('Requested less than a minute ago.');
  await expect(waiting).toContainText('Waiting for our team to add your USDT (ERC-20) address');
  await expect(waiting.getByRole('button')).toHaveCount(0);
  await expect(
    admin
      .getByRole('region', { name: 'Address requests' })
      .getByRole('row')
      .filter({ hasText: account.email }),
  ).toHaveCount(1);

  // Still waiting after a reload: the request is kept by the server, once.
  await customer.reload();
  await expect(requestItem(customer, 'ERC-20')).toContainText('Requested less than a minute ago.');
  await expect(requestItem(customer, 'TRC-20').getByRole('button')).toBeVisible();
  await expectAccessible(customer);
  await snap(customer, 'deposit-request-waiting');

  // The asset's own page says the same: waiting for ERC-20, a way to ask for TRC-20.
  await customer.goto('/dashboard/asset/usdt-erc20');
  await expect(customer.getByRole('status').filter({ hasText: 'You requested' })).toHaveText(
    "You requested a USDT (ERC-20) address less than a minute ago; we'll e-mail you when it is ready.",
  );
  await customer.goto('/dashboard/asset/usdt-trc20');
  await expect(
    customer.getByText('Our team adds USDT (TRC-20) addresses on request'),
  ).toBeVisible();
  await expectAccessible(customer);
  await snap(customer, 'asset-detail-request');
  await customer.getByRole('link', { name: 'request one on the Deposit page' }).click();
  await expect(requestItem(customer, 'TRC-20').getByRole('button')).toBeVisible();
});

test('staff assign the address from the request; the customer is mailed and sees it', async () => {
  const requests = admin.getByRole('region', { name: 'Address requests' });
  const row = requests.getByRole('row').filter({ hasText: account.email });
  await expect(row.getByRole('cell').nth(1)).toHaveText('USDTERC-20');
  await expect(row).toContainText('less than a minute');
  await expectAccessible(admin);
  await snap(admin, 'admin-address-requests');

  await row
    .getByRole('button', { name: `Assign a USDT (ERC-20) address to ${account.email}` })
    .click();
  const dialog = admin.getByRole('dialog', { name: 'Add Deposit Address' });
  await expect(dialog.getByRole('combobox', { name: 'Customer' })).toHaveValue(account.email);
  await expect(dialog.getByLabel('Asset')).toHaveValue('USDT');
  await expect(dialog.getByLabel('Network')).toHaveValue('erc20');
  await dialog.getByLabel('Address').fill(address);
  await snap(admin, 'admin-address-assign');
  await dialog.getByRole('button', { name: 'Add Address' }).click();
  await confirmStepUp(admin, staff, { title: 'Confirm the new address' });
  await expect(toasts(admin)).toContainText(STAFF_MSG.proposed);
  await expect(dialog).toHaveCount(0);
  // The request waits until the address is approved.
  await expect(requests.getByRole('row').filter({ hasText: account.email })).toHaveCount(1);
  await approveThroughApi(approverPage, approver, staff, 'deposit-address.create');
  await expect(admin.getByRole('row').filter({ hasText: account.email })).toHaveCount(1);
  await expect(requests.getByRole('row').filter({ hasText: account.email })).toHaveCount(0);

  const mail = await mailTo(account.email);
  expect(mail).toContain('Subject: Your USDT (ERC-20) deposit address is ready');
  expect(mail).toMatch(/https?:\/\/[^\s]+\/dashboard\/deposit\s/);
  expect(mail.toLowerCase()).not.toContain(address);

  // The customer's open deposit page shows it without a refresh.
  await expect(customer).toHaveURL(/\/dashboard\/deposit$/);
  const card = customer.getByRole('group', { name: 'USDT' });
  await expect(card.getByText(address, { exact: true })).toBeVisible();
  await expect(card.getByText('ERC-20', { exact: true })).toBeVisible();
  await expect(requestItem(customer, 'ERC-20')).toHaveCount(0);
  await expect(requestSection(customer).getByRole('listitem')).toHaveCount(3);
  await snap(customer, 'deposit-request-fulfilled');
});
