import { STAFF_MSG } from '@coffer/shared';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import {
  creditDeposit,
  expectAccessible,
  ownAddress,
  uniqueEmail,
  uniqueTxHash,
} from './support/app';
import {
  type Account,
  approveThroughApi,
  changesQueue,
  confirmStepUp,
  createCustomer,
  proposeBalanceThroughApi,
  queuedChange,
  sidebar,
  signInNewAdminAccount,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// Two staff members and a customer: what one proposes, only the other applies.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

let contexts: BrowserContext[] = [];
let proposerPage: Page;
let approverPage: Page;
let customer: Account;
let proposer: Account;
let approver: Account;

async function newPage(browser: import('@playwright/test').Browser): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  await ownAddress(context);
  return context.newPage();
}

async function pickCustomer(page: Page, email: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Select User' }).fill(email);
  await page.getByRole('option', { name: new RegExp(email.replace(/[.+]/g, '\\$&')) }).click();
}

test.beforeAll(async ({ browser }) => {
  // Three accounts, two of them made with the CLI.
  test.setTimeout(180_000);
  customer = await createCustomer(await newPage(browser), 'four-eyes');
  creditDeposit(customer.email, 'BTC', '0.5', uniqueTxHash());
  proposerPage = await newPage(browser);
  proposer = await signInNewAdminAccount(proposerPage, 'proposer');
  approverPage = await newPage(browser);
  approver = await signInNewAdminAccount(approverPage, 'approver');
});

test.afterAll(async () => {
  for (const context of contexts) await context.close();
  contexts = [];
});

test('a balance edit waits for a second staff member, who sees it before and after and approves it', async () => {
  const page = proposerPage;
  await sidebar(page).getByRole('link', { name: 'Wallet Management' }).click();
  await pickCustomer(page, customer.email);
  const btc = page.getByRole('main').getByRole('row', { name: 'BTC Bitcoin Network wallet' });
  await expect(btc).toContainText('0.50000000 BTC');
  await btc.getByRole('button', { name: 'Edit BTC Bitcoin Network balance' }).click();
  await page.getByLabel('New balance (BTC)').fill('0.75');
  await page.getByLabel('Reason (the customer sees it)').fill('Goodwill credit, ticket 4242');
  await page.getByRole('button', { name: 'Save balance' }).click();
  await confirmStepUp(page, proposer, {
    title: 'Confirm the balance edit',
    says: 'Propose setting this BTC wallet to 0.75 BTC',
  });
  // Proposed: nothing changed.
  await expect(toasts(page)).toContainText(STAFF_MSG.proposed);
  await expect(btc).toContainText('0.50000000 BTC');

  // The proposer's staff home: the change waits, theirs to withdraw, not to approve.
  await sidebar(page)
    .getByRole('link', { name: /^Admin Dashboard/ })
    .click();
  const mine = queuedChange(page, customer.email);
  await expect(mine).toBeVisible();
  await expect(mine).toContainText('Proposed by you');
  await expect(mine.getByRole('button', { name: 'Withdraw' })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(mine).toContainText('Another staff member must approve your proposal');
  await expect(sidebar(page).getByTestId('menu-changes-count')).toBeVisible();
  // The server refuses the proposer's own approval, whatever the screen offers.
  const [change] = (
    (await (await page.request.get('/api/admin/changes')).json()) as {
      changes: { id: string; subject: { email: string } | null }[];
    }
  ).changes.filter((c) => c.subject?.email === customer.email);
  const own = await page.request.post(`/api/admin/changes/${change?.id}/approve`, {
    data: { stepUp: { code: proposer.backupCodes[0] } },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(own.status()).toBe(403);
  expect((await own.json()).message).toBe(STAFF_MSG.ownProposal);
  await snap(page, 'staff-changes-proposer');

  // The second staff member: the same change, before and after, and Approve.
  const other = approverPage;
  await other.goto('/dashboard/admin');
  const waiting = queuedChange(other, customer.email);
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText(`Proposed by ${proposer.email}`);
  await expect(waiting).toContainText(`Concerns ${customer.email}`);
  await expect(waiting.getByText('Before', { exact: true })).toBeVisible();
  await expect(waiting.getByText('After', { exact: true })).toBeVisible();
  await expect(waiting).toContainText('0.75');
  await expect(waiting.getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
  await expectAccessible(other);
  await snap(other, 'staff-changes-queue');
  await waiting.getByRole('button', { name: 'Approve' }).click();
  await confirmStepUp(other, approver, { title: 'Approve this change' });
  await expect(toasts(other)).toContainText('Change approved and applied');
  await expect(waiting).toHaveCount(0);

  // Applied: the balance reads the new value.
  await sidebar(other).getByRole('link', { name: 'Wallet Management' }).click();
  await pickCustomer(other, customer.email);
  await expect(
    other.getByRole('main').getByRole('row', { name: 'BTC Bitcoin Network wallet' }),
  ).toContainText('0.75000000 BTC');
});

test('the Staff screen lists staff with roles; an owner proposes an invitation', async () => {
  const page = proposerPage;
  await sidebar(page).getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/staff$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
  const row = page.getByRole('row', { name: approver.email });
  await expect(row).toContainText('Owner');
  await expect(row).toContainText('Approver');
  await expect(row).toContainText('2FA');
  await expectAccessible(page);
  await snap(page, 'staff-screen');

  await page.getByRole('button', { name: 'Invite staff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite staff' });
  await dialog.getByLabel('E-mail').fill(uniqueEmail('invited'));
  // At least one role, said under the roles.
  await dialog.getByRole('button', { name: 'Propose invitation' }).click();
  await expect(dialog).toContainText(STAFF_MSG.noRoles);
  await dialog.getByLabel('Support').check();
  await expect(dialog).toContainText('Answers chat; reads customers and transactions');
  await expectAccessible(page);
  await snap(page, 'staff-invite');
  await dialog.getByRole('button', { name: 'Propose invitation' }).click();
  await confirmStepUp(page, proposer, { title: 'Confirm the invitation' });
  await expect(toasts(page)).toContainText('Proposed: another owner must approve');
  await expect(dialog).toHaveCount(0);

  // The other owner approves it (through the API: the queue is the test above).
  const invited = await approveThroughApi(approverPage, approver, proposer);
  expect(invited.summary).toContain('Invite');
});

test('a support-only staff member is offered no write action', async ({ browser }) => {
  const page = await newPage(browser);
  await signInNewAdminAccount(page, 'support-only', ['support']);
  const menu = sidebar(page);
  await expect(menu.getByRole('link', { name: 'Transactions' })).toBeVisible();
  for (const hidden of ['Payouts', 'App Settings', 'Chains', 'Audit Log', 'Staff', 'KYC Review']) {
    await expect(menu.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
  }

  // A change waiting: support sees it, and no Approve.
  await proposeBalanceThroughApi(proposerPage, proposer, customer.email, 'BTC', '0.8');
  await page.reload();
  await expect(queuedChange(page, customer.email)).toBeVisible();
  await expect(changesQueue(page).getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await menu.getByRole('link', { name: 'Wallet Management' }).click();
  await pickCustomer(page, customer.email);
  const btc = page.getByRole('main').getByRole('row', { name: 'BTC Bitcoin Network wallet' });
  await expect(btc).toContainText('0.75000000 BTC');
  await expect(btc.getByRole('button')).toHaveCount(0);

  await menu.getByRole('link', { name: 'Transactions' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Transaction Management' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Transaction' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Edit transaction/ })).toHaveCount(0);

  await menu.getByRole('link', { name: 'Deposit Addresses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Deposit Addresses' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Address' })).toHaveCount(0);
  await snap(page, 'staff-support-addresses');
});
