import { STAFF_MSG } from '@coffer/shared';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, mailTo, ownAddress, uniqueTxHash } from './support/app';
import {
  type Account,
  approveThroughApi,
  confirmSetup,
  confirmStepUp,
  createCustomer,
  expectDashboard,
  readSetupScreen,
  sidebar,
  signIn,
  signInNewAdminAccount,
  toasts,
} from './support/flows';
import { expectNoSidewaysScroll, expectOnOneLine, expectToastsBelowTopBar } from './support/layout';
import { snap } from './support/shots';

// One customer and one admin side by side: the admin's 2FA actions reach the customer.
test.describe.configure({ mode: 'serial' });

let customerContext: BrowserContext;
let adminContext: BrowserContext;
let customer: Page;
let admin: Page;
let account: Account;
let adminEmail: string;
let staffAdmin: Account;

/** What staff confirm factor changes with: their own fresh second factor. */
const OWN_FACTOR = 'Confirm with your own second factor';

/** '$6,100.00' for 6100 — what the screen shows for an exact two-decimal figure. */
function usd(value: number): string {
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

test.beforeAll(async ({ browser }) => {
  customerContext = await browser.newContext();
  await ownAddress(customerContext);
  customer = await customerContext.newPage();
  account = await createCustomer(customer, 'users');
  creditDeposit(account.email, 'ETH', '2', uniqueTxHash());
  creditDeposit(account.email, 'USDT-ERC20', '100', uniqueTxHash());

  adminContext = await browser.newContext();
  await ownAddress(adminContext);
  admin = await adminContext.newPage();
  staffAdmin = await signInNewAdminAccount(admin, 'users-admin');
  adminEmail = staffAdmin.email;
});

test.afterAll(async () => {
  await customerContext.close();
  await adminContext.close();
});

function customerRow(page: Page) {
  return page.getByRole('row').filter({ hasText: account.email });
}

/** Opens a customer's row menu (in the table, or their card on a phone) and picks an item. */
async function rowAction(page: Page, email: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** The items of a customer's row menu, read and closed again. */
async function rowMenuItems(page: Page, email: string) {
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  const items = await menu.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  return items;
}

test('the dashboard shows real tiles and leads to Users, where figures and 2FA controls work', async () => {
  const overview = admin.getByRole('region', { name: 'Overview' });
  for (const tile of ['Total Users', 'Total Volume', 'Active Addresses', 'System Health']) {
    await expect(overview.getByRole('heading', { name: tile })).toBeVisible();
  }
  await expect(overview).toContainText(/Total Volume\s*\$[1-9]/);
  await expect(admin.getByRole('link', { name: /Recovery Phrases.*Critical/ })).toBeVisible();
  await expectAccessible(admin);
  await snap(admin, 'admin-dashboard-tiles');

  // The card's link has no /dashboard prefix; it leads to the screen all the same.
  await admin.getByRole('link', { name: /User Management/ }).click();
  await expect(admin).toHaveURL(/\/dashboard\/admin\/users$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Users Management' })).toBeVisible();
  const summary = admin.getByRole('region', { name: 'Summary' });
  for (const card of ['Total Users', 'Active Users', 'New This Month', 'Verified']) {
    await expect(summary.getByRole('heading', { name: card })).toBeVisible();
  }

  await admin.getByRole('searchbox', { name: 'Search users' }).fill(account.email);
  const row = customerRow(admin);
  await expect(row).toHaveCount(1);
  // A customer without a name is known by their e-mail, shown once, never as "Unknown User".
  await expect(row).not.toContainText('Unknown User');
  await expect(row.getByText(account.email, { exact: true })).toHaveCount(1);

  // Real figures at the live ETH price: 2 ETH + 100 USDT.
  const prices = await (await admin.request.get('/api/prices')).json();
  const eth = Number(prices.prices.find((p: { assetId: string }) => p.assetId === 'ETH').priceUsd);
  await expect(row.getByTestId('staking-usd')).toHaveText(usd(2 * eth));
  await expect(row.getByTestId('portfolio-usd')).toHaveText(usd(2 * eth + 100));
  await expect(row).toContainText('2FA Enabled');
  expect(await rowMenuItems(admin, account.email)).toEqual([
    'Security activity',
    'Reset 2FA',
    'Disable 2FA',
  ]);

  // 2FA Required: off (confirmed, with a reason), then on again, each with its toast.
  const required = row.getByRole('switch', { name: /2FA required for/ });
  await expect(required).toBeChecked();
  await required.click();
  const waive = admin.getByRole('dialog', { name: 'Stop requiring 2FA?' });
  await expect(waive.getByRole('button', { name: 'Stop requiring 2FA' })).toBeDisabled();
  await waive.getByLabel('Reason').fill('No phone; identity checked on a video call');
  await expectAccessible(admin);
  await waive.getByRole('button', { name: 'Stop requiring 2FA' }).click();
  // Weakening a customer's sign-in takes the staff member's own second factor.
  await confirmStepUp(admin, staffAdmin, { title: OWN_FACTOR });
  await expect(waive).toBeHidden();
  await expect(toasts(admin)).toContainText('2FA Not Required');
  await expect(required).not.toBeChecked();
  await admin.reload();
  await admin.getByRole('searchbox', { name: 'Search users' }).fill(account.email);
  await expect(customerRow(admin).getByRole('switch')).not.toBeChecked();
  // At 1440 px the table fits its card and every action reads on one line inside its
  // button; the toast leaves the top bar's e-mail and Logout uncovered.
  await admin.setViewportSize({ width: 1440, height: 900 });
  await customerRow(admin).getByRole('switch').click();
  await confirmStepUp(admin, staffAdmin, { title: 'Require two-factor authentication' });
  await expect(toasts(admin)).toContainText('2FA Required');
  await expectToastsBelowTopBar(admin);
  await expect(customerRow(admin).getByRole('switch')).toBeChecked();
  await expectNoSidewaysScroll(admin.getByRole('region', { name: 'Users' }));
  await expectOnOneLine(customerRow(admin).getByRole('button'));
  await expectAccessible(admin);
  await snap(admin, 'admin-users');
});

test('at 375 px each customer is a card, with the row menu and a confirmation naming them', async () => {
  await admin.setViewportSize({ width: 375, height: 812 });
  try {
    await admin.goto('/dashboard/admin/users');
    await admin.getByRole('searchbox', { name: 'Search users' }).fill(account.email);
    // The table gives way to a list of cards: nothing scrolls sideways.
    await expect(admin.getByRole('table', { name: 'Users' })).toBeHidden();
    const card = admin.getByRole('list', { name: 'Users' }).getByRole('listitem');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(account.email);
    await expect(card).toContainText('Portfolio Balance');
    await expect(card.getByRole('switch', { name: /2FA required for/ })).toBeVisible();
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );

    await card.getByRole('button', { name: `Actions for ${account.email}` }).click();
    const menu = admin.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText([
      'Security activity',
      'Reset 2FA',
      'Disable 2FA',
    ]);
    await expectAccessible(admin);
    await snap(admin, 'admin-users-card-menu', ['mobile']);
    await menu.getByRole('menuitem', { name: 'Disable 2FA' }).click();
    // The confirmation names the customer: by their e-mail, as they gave no name.
    const dialog = admin.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
    await expect(dialog).toContainText(`${account.email} loses their authenticator`);
    await expectAccessible(admin);
    await snap(admin, 'admin-users-card-confirm', ['mobile']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('2FA Enabled');

    await rowAction(admin, account.email, 'Reset 2FA');
    const reset = admin.getByRole('dialog', { name: 'Reset 2FA' });
    await expect(reset).toContainText(account.email);
    await reset.getByRole('button', { name: 'Cancel' }).click();
    await expect(reset).toBeHidden();
  } finally {
    await admin.setViewportSize({ width: 1280, height: 720 });
  }
});

test('Reset 2FA needs the customer’s phrase, checked by the server, and signs the customer out', async () => {
  await rowAction(admin, account.email, 'Reset 2FA');
  const dialog = admin.getByRole('dialog', { name: 'Reset 2FA' });
  const submit = dialog.getByRole('button', { name: 'Reset 2FA' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Recovery phrase').fill(`${account.phrase.slice(1).join(' ')} abandon`);
  await submit.click();
  // The admin's own second factor first; then the server checks the phrase and refuses it.
  await confirmStepUp(admin, staffAdmin, { title: OWN_FACTOR });
  await expect(toasts(admin)).toContainText('Reset Failed');
  await expect(toasts(admin)).toContainText('Failed to reset 2FA. Please try again.');
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expectAccessible(admin);
  await snap(admin, 'admin-users-reset-dialog');

  // The customer is still signed in after the wrong phrase.
  await customer.reload();
  await expectDashboard(customer);

  await dialog.getByLabel('Recovery phrase').fill(account.phrase.join(' '));
  await submit.click();
  await confirmStepUp(admin, staffAdmin, { title: OWN_FACTOR });
  await expect(toasts(admin)).toContainText('2FA Reset Successful');
  await expect(dialog).toBeHidden();
  await expect(customerRow(admin)).toContainText('2FA Disabled');
  expect(await rowMenuItems(admin, account.email)).toEqual(['Security activity', 'Reset 2FA']);

  // Every session of the customer ended.
  await customer.reload();
  await expect(customer).toHaveURL(/\/auth/);
});

test('Disable 2FA asks why, in a dialog that names the customer, and takes the admin’s step-up', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await ownAddress(context);
  const page = await context.newPage();
  const target = await createCustomer(page, 'users-disable');
  await context.close();

  await admin.goto('/dashboard/admin/users');
  await admin.getByRole('searchbox', { name: 'Search users' }).fill(target.email);
  const row = admin.getByRole('row').filter({ hasText: target.email });
  await expect(row).toContainText('2FA Enabled');
  await rowAction(admin, target.email, 'Disable 2FA');
  const dialog = admin.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
  await expect(dialog).toContainText(target.email);
  const confirm = dialog.getByRole('button', { name: 'Disable 2FA' });
  await expect(confirm).toBeDisabled();
  const reason = 'Lost phone; identity checked on a video call, ticket 5150';
  await dialog.getByLabel('Reason').fill(reason);
  await expectAccessible(admin);
  await snap(admin, 'admin-users-disable-reason');
  await confirm.click();
  await confirmStepUp(admin, staffAdmin, { title: OWN_FACTOR });
  await expect(toasts(admin)).toContainText('2FA Disabled');
  await expect(row).toContainText('2FA Disabled');
  // The customer is told, with the reason.
  const mail = await mailTo(target.email);
  expect(mail).toContain('turned off two-factor authentication');
  expect(mail.replace(/=\r?\n/g, '')).toContain(`Reason given: ${reason}`);
});

test('an admin proposes resetting another admin’s 2FA from the Staff list, with a reason, never their own; a third approves', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  await ownAddress(context);
  const other = await context.newPage();
  const otherAccount = await signInNewAdminAccount(other, 'users-other-admin');
  const otherEmail = otherAccount.email;
  // Two people, neither of them the staff member concerned: a third owner approves.
  const thirdContext = await browser.newContext();
  await ownAddress(thirdContext);
  const third = await thirdContext.newPage();
  const thirdAccount = await signInNewAdminAccount(third, 'users-third-admin');

  await admin.goto('/dashboard/admin/users');
  const staff = admin.getByRole('table', { name: 'Staff' });
  const mine = staff.getByRole('row').filter({ hasText: adminEmail });
  await expect(mine).toContainText('You');
  await expect(mine.getByRole('button', { name: /Reset 2FA/ })).toHaveCount(0);
  const row = staff.getByRole('row').filter({ hasText: otherEmail });
  await expect(row).toContainText('2FA Enabled');

  await row.getByRole('button', { name: `Reset 2FA for ${otherEmail}` }).click();
  const dialog = admin.getByRole('dialog', { name: "Reset this admin's 2FA?" });
  const confirm = dialog.getByRole('button', { name: 'Reset 2FA' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Reason').fill('Lost phone; identity checked on a video call');
  await expectAccessible(admin);
  await snap(admin, 'admin-users-staff-reset');
  await confirm.click();
  await confirmStepUp(admin, staffAdmin, { title: OWN_FACTOR });
  await expect(dialog).toBeHidden();
  await expect(toasts(admin)).toContainText(STAFF_MSG.proposed);
  // Proposed: their factor stays until another owner approves.
  await expect(row).toContainText('2FA Enabled');
  await approveThroughApi(third, thirdAccount, staffAdmin, 'staff.2fa.reset');
  await admin.reload();
  await expect(row).toContainText('Not set up');
  await expect(row.getByRole('button', { name: /Reset 2FA/ })).toHaveCount(0);

  // Told by e-mail, with the hold and its "This wasn't me" link.
  const mail = await mailTo(otherEmail);
  expect(mail).toContain('Another Coffer admin reset two-factor authentication');
  expect(mail).toContain('/freeze?token=');

  // Signed out everywhere; back with their own password, they set up a new factor.
  await other.reload();
  await expect(other).toHaveURL(/\/auth/);
  await signIn(other, otherEmail);
  // Staff never use a recovery phrase: the new setup shows none and asks no words back.
  const setup = await readSetupScreen(other, { staff: true });
  await other.getByRole('button', { name: 'Continue' }).click();
  await confirmSetup(other, setup);

  // On hold now: the restored admin still reads, but changes nothing, and is told until when.
  await other.goto('/dashboard/admin/users');
  const staffTable = other.getByRole('table', { name: 'Staff' });
  await staffTable
    .getByRole('row')
    .filter({ hasText: adminEmail })
    .getByRole('button', { name: /Reset 2FA/ })
    .click();
  const heldDialog = other.getByRole('dialog', { name: "Reset this admin's 2FA?" });
  await heldDialog.getByLabel('Reason').fill('Trying while on hold');
  await heldDialog.getByRole('button', { name: 'Reset 2FA' }).click();
  await confirmStepUp(other, { ...otherAccount, ...setup }, { title: OWN_FACTOR });
  await expect(heldDialog.getByRole('alert')).toContainText(
    /Your account is under a security hold until .+: staff actions that move money/,
  );
  await snap(other, 'admin-users-held-admin');

  // The audit log names who approved it, to whom, and why.
  const query = new URLSearchParams({ action: 'admin.2fa.reset', targetUser: otherEmail });
  const audit = await admin.request.get(`/api/admin/audit?${query}`);
  expect(audit.ok()).toBe(true);
  expect((await audit.json()).items).toEqual([
    expect.objectContaining({
      actorEmail: thirdAccount.email,
      targetUserEmail: otherEmail,
      reason: expect.stringContaining('Lost phone; identity checked on a video call'),
    }),
  ]);
  await context.close();
  await thirdContext.close();
});

test('Recovery Phrases shows who has one, and never a phrase', async () => {
  await sidebar(admin).getByRole('link', { name: 'Recovery Phrases' }).click();
  await expect(admin).toHaveURL(/\/admin\/recovery-phrases$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Recovery Phrases' })).toBeVisible();
  const summary = admin.getByRole('region', { name: 'Summary' });
  for (const card of ['Total Phrases', 'Generated', 'Custom', 'This Week']) {
    await expect(summary.getByRole('heading', { name: card })).toBeVisible();
  }
  // The Reset 2FA above used the customer's phrase, which burnt it (product.md S10): they
  // are now among the users without one, until they make a new one.
  await expect(admin.getByRole('row').filter({ hasText: account.email })).toHaveCount(0);
  await expect(admin.getByRole('heading', { name: 'Users Without Phrases' })).toBeVisible();
  await expect(admin.getByRole('listitem').filter({ hasText: account.email })).toBeVisible();
  await expect(admin.getByRole('button', { name: /View|Copy|Generate/ })).toHaveCount(0);
  // The table holds facts only: no Actions column of filler text.
  await expect(
    admin.getByRole('table', { name: 'Recovery phrases' }).getByRole('columnheader'),
  ).toHaveText(['User', 'Type', 'Created']);
  await expect(admin.getByText('Already has phrase')).toHaveCount(0);
  const text = (await admin.locator('body').innerText()).toLowerCase();
  expect(text).not.toContain(account.phrase.slice(0, 3).join(' '));
  await expectAccessible(admin);
  await snap(admin, 'admin-recovery-phrases');
});

test('a customer gets the access-denied texts, and is sent away from other admin screens', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await ownAddress(context);
  const page = await context.newPage();
  await createCustomer(page, 'users-denied');

  await page.goto('/dashboard/admin/users');
  await expect(
    page.getByText("Access Denied - You don't have permission to access this page."),
  ).toBeVisible();
  await page.goto('/admin/recovery-phrases');
  await expect(page.getByText("You don't have permission to access this page.")).toBeVisible();
  await page.goto('/dashboard/admin/settings');
  await expectDashboard(page);
  await page.goto('/admin/settings');
  await expectDashboard(page);
  await context.close();
});
