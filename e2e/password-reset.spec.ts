import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, mailTo } from './support/app';
import {
  createCustomer,
  expectTwoFactorPrompt,
  FOREIGN_PHRASE,
  signIn,
  signOutFromTopBar,
} from './support/flows';
import { snap } from './support/shots';

const NEW_PASSWORD = 'Coffer-e2e-Reset2';

async function fillResetForm(page: Page, phrase: string, password: string, confirm: string) {
  await page.getByLabel('Recovery phrase').fill(phrase);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(confirm);
  await page.getByRole('button', { name: 'Reset Password' }).click();
}

function formAlert(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

test('a customer resets a forgotten password with the recovery phrase', async ({ page }) => {
  const account = await createCustomer(page, 'reset');
  await signOutFromTopBar(page);

  // Reached from the sign-in page.
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute(
    'href',
    '/auth',
  );
  await expectAccessible(page);
  await snap(page, 'reset-password');

  // Not twelve words.
  await fillResetForm(page, 'one two three', NEW_PASSWORD, NEW_PASSWORD);
  await expect(
    formAlert(page, 'Recovery phrase must contain exactly 12 words separated by spaces.'),
  ).toBeVisible();
  await expect(page.getByLabel('Recovery phrase')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await snap(page, 'reset-password-error');

  // Twelve words, but the passwords differ.
  await fillResetForm(page, account.phrase.join(' '), NEW_PASSWORD, `${NEW_PASSWORD}x`);
  await expect(formAlert(page, 'Passwords do not match.')).toBeVisible();

  // A common password: refused in the form, with the reason (product.md S9).
  await fillResetForm(page, account.phrase.join(' '), 'Password1', 'Password1');
  await expect(
    formAlert(page, 'This is a commonly used password. Add more words that are less common.'),
  ).toBeVisible();
  await expect(page.getByText(/not a common or easily guessed password/)).toBeVisible();

  // The account's own e-mail as the password: only the server knows whose phrase this is,
  // and the form shows its reason.
  const fromEmail = `${account.email[0]?.toUpperCase()}${account.email.slice(1)}1`;
  await fillResetForm(page, account.phrase.join(' '), fromEmail, fromEmail);
  await expect(
    formAlert(page, 'Passwords that contain your e-mail address or name are easy to guess.'),
  ).toBeVisible();

  // A well-formed phrase of nobody's account.
  await fillResetForm(page, FOREIGN_PHRASE, NEW_PASSWORD, NEW_PASSWORD);
  await expect(
    formAlert(page, 'Invalid recovery phrase. Please check your 12-word phrase and try again.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password$/);

  // Their own phrase, typed loosely (extra spaces, capitals): it is normalised.
  const loose = `  ${account.phrase.join('   ').toUpperCase()} `;
  await fillResetForm(page, loose, NEW_PASSWORD, NEW_PASSWORD);
  await expect(
    page.getByRole('status').filter({
      hasText: 'Password has been reset successfully! You can now sign in with your new password.',
    }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password$/);
  // Desktop only: the page moves on after three seconds.
  await snap(page, 'reset-password-done', ['desktop']);
  // Three seconds after the success, the sign-in page.
  await expect(page).toHaveURL(/\/auth$/, { timeout: 4_000 });

  // The old password no longer works, the new one does.
  await signIn(page, account.email, account.password);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid email or password.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  await signIn(page, account.email, NEW_PASSWORD);
  await expectTwoFactorPrompt(page);
  await expect(page.getByLabel('Authentication code')).toBeVisible();

  // Using the phrase started a security hold (product.md S10): the mail says so, and its
  // "This wasn't me" link asks before it freezes the account.
  const mail = await mailTo(account.email);
  expect(mail).toContain('Subject: Your Coffer password was reset');
  expect(mail).toContain('on hold until');
  const link = mail.match(/https?:\/\/\S+\/freeze\?token=\S+/)?.[0];
  expect(link).toBeTruthy();
  await page.goto(new URL(link ?? '').pathname + new URL(link ?? '').search);
  await expect(page.getByRole('heading', { level: 1, name: "This wasn't me" })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'freeze-account');
  await page.getByRole('button', { name: 'Freeze my account' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Your account is frozen' }),
  ).toBeVisible();
  // The link works once.
  await page.reload();
  await page.getByRole('button', { name: 'Freeze my account' }).click();
  await expect(page.getByRole('alert')).toContainText('This link is no longer valid.');
});
