import { expect, type Locator, type Page, test } from '@playwright/test';
import { realJpeg } from '@server-test/image-fixtures';
import {
  creditDeposit,
  expectAccessible,
  freshCode,
  ownAddress,
  uniqueTxHash,
} from './support/app';
import {
  type Account,
  createCustomer,
  expectDashboard,
  signIn,
  signInNewAdmin,
} from './support/flows';
import { snap } from './support/shots';

// One new customer, from their first look at the dashboard to closing the checklist.
test.describe.configure({ mode: 'serial' });

let page: Page;
let account: Account;

function checklist(p: Page): Locator {
  return p.getByRole('region', { name: 'Get started' });
}

function step(p: Page, title: string): Locator {
  return checklist(p).getByRole('listitem').filter({ hasText: title });
}

/**
 * Opens the dashboard and waits for the checklist's answer (it comes with the dashboard's
 * one read), so that its absence means something.
 */
async function openDashboard(p: Page): Promise<void> {
  const answered = p.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/dashboard' && res.ok(),
  );
  await p.goto('/dashboard');
  await answered;
  await expectDashboard(p);
}

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  page = await context.newPage();
  account = await createCustomer(page, 'first-run');
});

test.afterAll(async () => {
  await page.context().close();
});

test('a new customer sees three steps to do, each leading to the screen that does it', async () => {
  await openDashboard(page);
  await expect(checklist(page)).toContainText('0 of 3 done');
  await expect(checklist(page).getByRole('listitem')).toHaveCount(3);
  await expect(step(page, 'Verify your identity')).toContainText('Not started.');
  await expect(step(page, 'Make your first deposit')).toContainText('Not yet.');
  await expect(step(page, 'Add a passkey')).toContainText('Not yet.');
  await expectAccessible(page);
  await snap(page, 'dashboard-first-run');

  await step(page, 'Verify your identity').getByRole('link', { name: 'Verify identity' }).click();
  await expect(page).toHaveURL(/\/kyc$/);
  await openDashboard(page);
  await step(page, 'Make your first deposit').getByRole('link', { name: 'Make a deposit' }).click();
  await expect(page).toHaveURL(/\/dashboard\/deposit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Deposit' })).toBeVisible();
  await openDashboard(page);
  await step(page, 'Add a passkey').getByRole('link', { name: 'Add a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings#passkeys$/);
  // The settings page opens at its Passkeys card, further down than the first screen.
  await expect(page.getByRole('heading', { name: 'Passkeys', exact: true })).toBeInViewport();
});

test('a step is ticked as it is done: a deposit while watching, then the identity sent', async () => {
  await openDashboard(page);
  // Credited while the dashboard is open: the checklist follows without a reload.
  creditDeposit(account.email, 'BTC', '0.01', uniqueTxHash());
  await expect(checklist(page)).toContainText('1 of 3 done');
  await expect(step(page, 'Make your first deposit')).toContainText('Done.');
  await expect(step(page, 'Make your first deposit').getByRole('link')).toHaveCount(0);

  const sent = await page.request.post('/api/kyc', {
    headers: { origin: new URL(page.url()).origin },
    multipart: {
      fullName: 'Ada Lovelace',
      phoneNumber: '+61 400 000 000',
      address: '1 Main St, Sydney',
      front: { name: 'licence.jpg', mimeType: 'image/jpeg', buffer: realJpeg() },
    },
  });
  expect(sent.status()).toBe(200);
  await openDashboard(page);
  await expect(step(page, 'Verify your identity')).toContainText('Submitted: waiting for review.');
  await expect(
    step(page, 'Verify your identity').getByRole('link', { name: 'View status' }),
  ).toBeVisible();
  await expect(checklist(page)).toContainText('1 of 3 done');
  await snap(page, 'dashboard-first-run-progress');
});

test('dismissed, it stays closed after a reload and on another device', async ({ browser }) => {
  await openDashboard(page);
  await checklist(page).getByRole('button', { name: 'Dismiss the checklist' }).click();
  await expect(checklist(page)).toHaveCount(0);
  await openDashboard(page);
  await expect(checklist(page)).toHaveCount(0);

  const other = await browser.newContext();
  await ownAddress(other);
  const elsewhere = await other.newPage();
  await signIn(elsewhere, account.email);
  const code = await freshCode(account.secret, account.lastCode);
  await elsewhere.getByLabel('Authentication code').fill(code);
  await elsewhere.getByRole('button', { name: 'Verify', exact: true }).click();
  await expectDashboard(elsewhere);
  await openDashboard(elsewhere);
  await expect(checklist(elsewhere)).toHaveCount(0);
  await other.close();
});

test('staff have no checklist of a customer on the dashboard', async ({ browser }) => {
  const context = await browser.newContext();
  await ownAddress(context);
  const staff = await context.newPage();
  await signInNewAdmin(staff, 'first-run-staff');
  const asked: string[] = [];
  staff.on('request', (req) => {
    if (new URL(req.url()).pathname.startsWith('/api/first-run')) asked.push(req.url());
  });
  await staff.goto('/dashboard');
  await expectDashboard(staff);
  await expect(staff.getByText('Total Portfolio Value')).toBeVisible();
  await expect(checklist(staff)).toHaveCount(0);
  expect(asked).toEqual([]);
  await context.close();
});
