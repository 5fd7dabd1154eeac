import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectAccessible, mailTo, ownAddress } from './support/app';
import {
  type Account,
  confirmStepUp,
  createCustomer,
  signIn,
  signInNewAdminAccount,
  signOutFromTopBar,
  toasts,
  topBar,
  verifyWithBackupCode,
} from './support/flows';
import { snap } from './support/shots';

const AFTER_RESET = 'Coffer-e2e-Reset3';
const OWNERS_NEW = 'Coffer-e2e-Owner4';
const FROZEN =
  'This account is frozen for its safety: nobody can sign in until Coffer support has reviewed it with its owner. Please contact support.';
const AWAITING =
  'Coffer support has lifted the freeze on this account. Set a new password with the link we e-mailed you, then sign in.';

/** A page's path and query from a link in a mail (the mail names the public address). */
function pathOf(mail: string, route: string): string {
  const link = mail.match(new RegExp(`https?://\\S+/${route}\\?token=\\S+`))?.[0];
  if (!link) throw new Error(`no /${route} link in mail:\n${mail}`);
  const url = new URL(link);
  return url.pathname + url.search;
}

/** An admin on a browser of its own (`signInNewAdminAccount`), on the users screen. */
async function newAdmin(
  browser: Browser,
  prefix: string,
): Promise<{ page: Page; account: Account }> {
  const context = await browser.newContext();
  const address = await ownAddress(context);
  const page = await context.newPage();
  const account = { ...(await signInNewAdminAccount(page, prefix)), address };
  await page.goto('/dashboard/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users Management' })).toBeVisible();
  return { page, account };
}

test('a frozen account stays shut until two admins lift it and its owner sets a new password', async ({
  page,
  browser,
}) => {
  // Three people in turn (the customer and two admins, each signing in): longer than most.
  test.slow();
  // A customer whose phrase was used to reset the password: the mail carries "This wasn't me".
  const customer = await createCustomer(page, 'frozen');
  await signOutFromTopBar(page);
  const reset = await page.request.post('/api/auth/reset-password', {
    data: { recoveryPhrase: customer.phrase.join(' '), newPassword: AFTER_RESET },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(reset.ok()).toBe(true);
  await page.goto(pathOf(await mailTo(customer.email), 'freeze'));
  await page.getByRole('button', { name: 'Freeze my account' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Your account is frozen' }),
  ).toBeVisible();

  // Frozen: the right password and a wrong one get the same clear answer, and no way in.
  await page.goto('/auth');
  await signIn(page, customer.email, AFTER_RESET);
  const notice = page.getByRole('alert').filter({ hasText: 'Account frozen' });
  await expect(notice).toContainText(FROZEN);
  await expect(page).toHaveURL(/\/auth$/);
  await expectAccessible(page);
  await snap(page, 'sign-in-frozen');
  await signIn(page, customer.email, 'Not-the-password-9');
  await expect(notice).toContainText(FROZEN);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth/);

  // One admin asks, with how the account was reviewed, and a fresh second factor.
  const first = await newAdmin(browser, 'freeze-first');
  const search = (p: Page) => p.getByRole('searchbox', { name: 'Search users' });
  const row = (p: Page) => p.getByRole('row').filter({ hasText: customer.email });
  await search(first.page).fill(customer.email);
  await expect(row(first.page)).toContainText('Frozen');
  await row(first.page)
    .getByRole('button', { name: /^Unfreeze / })
    .click();
  const review = first.page.getByRole('dialog');
  await review.getByRole('button', { name: 'Request unfreeze' }).click();
  await expect(review.getByRole('alert')).toContainText('Say how the account was reviewed.');
  await review
    .getByLabel('How was the account reviewed?')
    .fill('Video call with the owner; ID matches the KYC documents');
  await expectAccessible(first.page);
  await snap(first.page, 'admin-unfreeze-request');
  await review.getByRole('button', { name: 'Request unfreeze' }).click();
  await confirmStepUp(first.page, first.account, { title: 'Confirm the unfreeze request' });
  await expect(toasts(first.page)).toContainText('another admin must approve it');
  await expect(row(first.page)).toContainText('Unfreeze requested');
  // The one who asked cannot approve: only withdraw.
  await row(first.page)
    .getByRole('button', { name: /^Unfreeze / })
    .click();
  await expect(review).toContainText('Another admin must approve it (four eyes).');
  await expect(review.getByRole('button', { name: 'Approve unfreeze' })).toHaveCount(0);
  await review.getByRole('button', { name: 'Cancel' }).click();

  // Still frozen for the customer.
  await page.goto('/auth');
  await signIn(page, customer.email, AFTER_RESET);
  await expect(notice).toContainText(FROZEN);

  // A second admin sees who asked and why, and approves.
  const second = await newAdmin(browser, 'freeze-second');
  await search(second.page).fill(customer.email);
  await row(second.page)
    .getByRole('button', { name: /^Unfreeze / })
    .click();
  const secondReview = second.page.getByRole('dialog');
  await expect(secondReview).toContainText(`By ${first.account.email}`);
  await expect(secondReview).toContainText(
    'Video call with the owner; ID matches the KYC documents',
  );
  await expectAccessible(second.page);
  await snap(second.page, 'admin-unfreeze-approve');
  await secondReview.getByRole('button', { name: 'Approve unfreeze' }).click();
  await confirmStepUp(second.page, second.account, { title: 'Confirm the unfreeze' });
  await expect(toasts(second.page)).toContainText('e-mailed a link to set a new password');
  // Until the owner sets a new password, the row says so (and offers a new link).
  await expect(row(second.page)).toContainText('New password pending');
  await expect(row(second.page)).not.toContainText('Frozen');
  await row(second.page)
    .getByRole('button', { name: /^Send .+ a new link$/ })
    .click();
  await expect(secondReview).toContainText('the customer has not set a new password');
  await expect(secondReview.getByRole('button', { name: 'Request a new link' })).toBeVisible();
  await snap(second.page, 'admin-unfreeze-new-link');
  await secondReview.getByRole('button', { name: 'Cancel' }).click();

  // The password known before the freeze no longer opens the account: the mail does.
  await page.goto('/auth');
  await signIn(page, customer.email, AFTER_RESET);
  await expect(page.getByRole('alert').filter({ hasText: 'Account frozen' })).toContainText(
    AWAITING,
  );
  const setPassword = pathOf(await mailTo(customer.email), 'set-password');
  await page.goto(setPassword);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(OWNERS_NEW);
  await page.getByLabel('Confirm new password', { exact: true }).fill(`${OWNERS_NEW}x`);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Passwords do not match.' }),
  ).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'set-password');
  await page.getByLabel('Confirm new password', { exact: true }).fill(OWNERS_NEW);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Your new password is set' }),
  ).toBeVisible();
  await snap(page, 'set-password-done');
  // The link works once.
  await page.goto(setPassword);
  await page.getByLabel('New password', { exact: true }).fill('Coffer-e2e-Again5');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Coffer-e2e-Again5');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Link not valid' })).toBeVisible();

  // The owner signs in with the new password and their own second factor; the phrase used
  // before the freeze is burnt, so the portal asks for a new one first (Secret Combination).
  await page.goto('/auth');
  await signIn(page, customer.email, OWNERS_NEW);
  await verifyWithBackupCode(page, customer.backupCodes[0] ?? '');
  await expect(page).toHaveURL(/\/secret-combination$/);
  await expect(topBar(page)).toContainText(customer.email);
});
