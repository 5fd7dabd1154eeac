import fs from 'node:fs';
import { DAY_RANGE_BACKWARDS } from '@coffer/shared';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, ownAddress, uniqueTxHash } from './support/app';
import { query } from './support/db';
import {
  type Account,
  confirmStepUp,
  createCustomer,
  signInNewAdminAccount,
} from './support/flows';
import { snap } from './support/shots';

// The back office's queues: Pending withdrawals and KYC review (oldest first, an Age
// column, search, filters and pages kept in the address), and the transactions list's day
// range and CSV export. One customer with two withdrawals, one admin.
test.describe.configure({ mode: 'serial' });

const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** The age of a request made during this run. */
const YOUNG = /^(< 1 min|\d+ min)$/;

let contexts: BrowserContext[] = [];
let admin: Page;
let staff: Account;
let account: Account;
/** Marks this file's KYC submissions, so a search finds them alone. */
const TAG = `Queue${Date.now().toString(36)}`;

async function newPage(browser: import('@playwright/test').Browser): Promise<Page> {
  const context = await browser.newContext();
  await ownAddress(context);
  contexts.push(context);
  return context.newPage();
}

/** A withdrawal as the customer's screen sends it, confirmed with one of their backup codes. */
async function withdraw(page: Page, amount: string, backupCode: string | undefined) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post('/api/withdrawals', {
    headers: { origin, 'Idempotency-Key': crypto.randomUUID() },
    data: { assetId: 'ETH', amount, address: ETH_ADDRESS, stepUp: { code: backupCode } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).transaction.id as string;
}

/** A customer and their KYC submission, made `hoursAgo`, straight into the database. */
async function kycSubmission(name: string, status: string, hoursAgo: number) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`;
  const [user] = await query<{ id: string }>(
    `INSERT INTO users (email, password_hash) VALUES ($1, 'not a hash') RETURNING id`,
    [email],
  );
  await query(
    `INSERT INTO kyc_submissions (user_id, full_name, phone_number, address, status,
       front_document_key, front_document_name, front_document_type, created_at)
     VALUES ($1, $2, '+61 400 000 000', '1 Main St', $3, 'kyc-documents/none', 'front.jpg',
       'image/jpeg', now() - $4 * interval '1 hour')`,
    [user?.id, name, status, hoursAgo],
  );
}

const pendingRows = (page: Page) => page.getByRole('tabpanel').getByRole('row');
/** The Age cell of each row, in the order shown (the header row has none). */
const ages = (page: Page) =>
  page.getByRole('main').getByRole('cell', { name: /^(< 1 min|\d+ (min|h|d))$/ });

test.beforeAll(async ({ browser }) => {
  const customer = await newPage(browser);
  account = await createCustomer(customer, 'queues');
  creditDeposit(account.email, 'ETH', '3', uniqueTxHash());
  const older = await withdraw(customer, '0.1', account.backupCodes[0]);
  await withdraw(customer, '0.2', account.backupCodes[1]);
  // The first request waited three hours.
  await query(
    `UPDATE transactions SET transaction_date = now() - interval '3 hours 5 minutes' WHERE id = $1`,
    [older],
  );
  await kycSubmission(`${TAG} Alpha`, 'pending', 49);
  await kycSubmission(`${TAG} Bravo`, 'pending', 3);
  await kycSubmission(`${TAG} Charlie`, 'approved', 5 * 24);
  admin = await newPage(browser);
  staff = await signInNewAdminAccount(admin, 'queues-admin');
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
  contexts = [];
});

test('Pending withdrawals: oldest first with their age, searched, filtered and paged from the address', async () => {
  await admin.goto('/dashboard/admin/transactions');
  await admin.getByRole('tab', { name: 'Pending withdrawals' }).click();
  await expect(admin).toHaveURL(/\?view=pending$/);
  const search = admin.getByRole('tabpanel').getByRole('searchbox', { name: 'Search' });
  await search.fill(account.email);
  await expect(admin).toHaveURL(new RegExp(`view=pending&q=${encodeURIComponent(account.email)}$`));
  await expect(admin.getByRole('columnheader', { name: 'Age' })).toBeVisible();
  // Oldest first unless asked otherwise.
  await expect(ages(admin)).toHaveText(['3 h', YOUNG]);
  await expect(admin.getByRole('navigation', { name: 'Pages' })).toContainText('2 payouts waiting');
  await expectAccessible(admin);
  await snap(admin, 'admin-pending-queue');

  await admin.getByLabel('Order').selectOption('newest');
  await expect(ages(admin)).toHaveText([YOUNG, '3 h']);
  // A reload (or a shared link) shows the same queue.
  await admin.reload();
  await expect(search).toHaveValue(account.email);
  await expect(admin.getByLabel('Order')).toHaveValue('newest');
  await expect(ages(admin)).toHaveText([YOUNG, '3 h']);

  // Filters narrow it: no bank payout waits for this customer, both withdrawals wait for
  // approval, none is approved yet.
  await admin.getByLabel('Type').selectOption('bank_transfer');
  await expect(
    admin.getByText('No waiting withdrawals match the search and filters.'),
  ).toBeVisible();
  await admin.getByLabel('Type').selectOption('withdrawal');
  await admin.getByLabel('Approval').selectOption('approved');
  await expect(
    admin.getByText('No waiting withdrawals match the search and filters.'),
  ).toBeVisible();
  await admin.getByLabel('Approval').selectOption('waiting');
  await expect(ages(admin)).toHaveCount(2);
  await admin.getByLabel('Asset').selectOption('BTC');
  await expect(ages(admin)).toHaveCount(0);
  await admin.getByRole('button', { name: 'Clear' }).click();
  await expect(admin).toHaveURL(/\?view=pending&order=newest$/);

  // One a page: Next and Previous walk the queue, and Back returns to the page before.
  await admin.goto(
    `/dashboard/admin/transactions?view=pending&q=${encodeURIComponent(account.email)}&limit=1`,
  );
  await expect(ages(admin)).toHaveText(['3 h']);
  const pages = admin.getByRole('navigation', { name: 'Pages' });
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(ages(admin)).toHaveText([YOUNG]);
  await expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
  await admin.goBack();
  await expect(ages(admin)).toHaveText(['3 h']);
  await pages.getByRole('button', { name: 'Next' }).click();
  await pages.getByRole('button', { name: 'Previous' }).click();
  await expect(ages(admin)).toHaveText(['3 h']);

  // A link the server would refuse says so, and leads back to the whole queue.
  await admin.goto('/dashboard/admin/transactions?view=pending&asset=DOGE');
  await expect(admin.getByRole('alert')).toContainText('Choose an asset from the list.');
  await admin.getByRole('button', { name: 'Show the whole queue' }).click();
  await expect(admin).toHaveURL(/\?view=pending$/);
});

test('Complete repeats where the payout goes before staff confirm it', async () => {
  await admin.goto(
    `/dashboard/admin/transactions?view=pending&q=${encodeURIComponent(account.email)}`,
  );
  const oldest = pendingRows(admin).filter({ hasText: '3 h' });
  await oldest.getByRole('button', { name: 'Approve' }).click();
  await confirmStepUp(admin, staff, { title: 'Approve withdrawal' });
  await oldest.getByRole('button', { name: 'Complete' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Complete withdrawal' });
  const destination = dialog.getByRole('region', { name: 'Destination' });
  await expect(destination).toContainText('Pays to');
  await expect(destination).toContainText('Ethereum');
  await expect(destination).toContainText(ETH_ADDRESS);
  await expectAccessible(admin);
  await snap(admin, 'admin-complete-destination');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // The approval filter now finds it.
  await admin.getByLabel('Approval').selectOption('approved');
  await expect(ages(admin)).toHaveText(['3 h']);
});

test('KYC review: what waits, oldest first with its age, searched and filtered from the address', async () => {
  await admin.goto('/dashboard/admin/kyc');
  await expect(admin.getByLabel('Status')).toHaveValue('pending');
  await admin.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill(TAG);
  await expect(admin).toHaveURL(new RegExp(`/dashboard/admin/kyc\\?q=${TAG}$`));
  await expect(admin.getByRole('columnheader', { name: 'Age' })).toBeVisible();
  const rows = admin.getByRole('main').getByRole('row').filter({ hasText: TAG });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(`${TAG} Alpha`);
  await expect(rows.nth(0)).toContainText('2 d');
  await expect(rows.nth(1)).toContainText(`${TAG} Bravo`);
  await expect(rows.nth(1)).toContainText('3 h');
  await expect(admin.getByRole('navigation', { name: 'Pages' })).toContainText('2 submissions');
  await expectAccessible(admin);
  await snap(admin, 'admin-kyc-queue');

  await admin.getByLabel('Status').selectOption('all');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(`${TAG} Charlie`);
  await expect(rows.nth(0)).toContainText('5 d');
  await admin.getByLabel('Order').selectOption('newest');
  await expect(rows.nth(0)).toContainText(`${TAG} Bravo`);
  await admin.reload();
  await expect(admin.getByLabel('Status')).toHaveValue('all');
  await expect(admin.getByLabel('Order')).toHaveValue('newest');
  await expect(rows.nth(0)).toContainText(`${TAG} Bravo`);
  await admin.getByLabel('Status').selectOption('approved');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Approved');
});

test('All transactions: a day range in UTC, checked, and a CSV export of what the filters show', async () => {
  await admin.goto('/dashboard/admin/transactions');
  const panel = admin.getByRole('tabpanel');
  await panel.getByRole('searchbox', { name: 'Search' }).fill(account.email);
  await expect(panel.getByText('Whole calendar days in UTC, both included.')).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);

  await panel.getByLabel('From (UTC)').fill('2030-01-02');
  await panel.getByLabel('To (UTC)').fill('2030-01-01');
  await expect(panel.getByRole('alert')).toHaveText(DAY_RANGE_BACKWARDS);
  await expect(panel.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  await expectAccessible(admin);

  await panel.getByLabel('From (UTC)').fill(today);
  await panel.getByLabel('To (UTC)').fill(today);
  // Today's deposit and both withdrawals (one moved three hours back may fall on yesterday).
  const rows = panel.getByRole('row').filter({ hasText: account.email });
  await expect(rows.first()).toBeVisible();
  const shown = await rows.count();
  await snap(admin, 'admin-transactions-range');

  const download = admin.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^coffer-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = fs
    .readFileSync((await file.path()) ?? '', 'utf8')
    .split('\r\n')
    .filter((l) => l !== '');
  expect(lines[0]).toBe(
    'Date (UTC),Id,Customer e-mail,Customer name,Type,Direction,Asset,Amount,USD,AUD,Currency,Status',
  );
  expect(lines).toHaveLength(shown + 1);
  for (const line of lines.slice(1)) {
    expect(line).toContain(account.email);
    expect(line.startsWith(today)).toBe(true);
  }

  await panel.getByLabel('From (UTC)').fill('2030-01-01');
  await panel.getByLabel('To (UTC)').fill('');
  await expect(panel.getByText('No transactions found')).toBeVisible();
});
