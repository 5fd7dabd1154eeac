import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import {
  createCustomer,
  expectDashboard,
  registerCustomer,
  sidebar,
  signIn,
  toasts,
  verifyWithCode,
} from './support/flows';
import { snap } from './support/shots';

const NEW_PASSWORD = 'Coffer-e2e-Reset2';

async function openFromMenu(page: Page) {
  await sidebar(page).getByRole('link', { name: 'Secret Combination' }).click();
  await expect(page).toHaveURL(/\/secret-combination$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Password Verification' }),
  ).toBeVisible();
}

function phraseList(page: Page) {
  return page.getByRole('list', { name: 'Your 12-word seed phrase' });
}

test('the recovery phrase is shown only behind the account password, on every visit', async ({
  page,
}) => {
  const account = await registerCustomer(page, 'phrase');

  await openFromMenu(page);
  await expect(phraseList(page)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/dashboard');
  await expectAccessible(page);
  await snap(page, 'secret-combination-password');

  // A wrong password keeps it closed, and is told at the field as well as in a toast.
  const passwordField = page.getByLabel('Account password');
  await passwordField.fill(`${account.password}-wrong`);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toasts(page).getByText('Invalid password', { exact: true })).toBeVisible();
  await expect(passwordField).toHaveAttribute('aria-invalid', 'true');
  await expect(passwordField).toHaveAccessibleDescription('The password you entered is incorrect.');
  await expect(
    page.getByRole('main').getByRole('alert').filter({
      hasText: 'The password you entered is incorrect.',
    }),
  ).toBeVisible();
  await snap(page, 'secret-combination-password-wrong');
  await expect(page.getByRole('heading', { name: 'Password Verification' })).toBeVisible();
  await expect(phraseList(page)).toHaveCount(0);

  // The right one opens it: the same twelve words as at the 2FA setup, numbered in order.
  await page.getByLabel('Account password').fill(account.password);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Seed Phrase Generated')).toBeVisible();
  const items = phraseList(page).getByRole('listitem');
  await expect(items).toHaveCount(12);
  const shown = await items.allInnerTexts();
  expect(shown.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(
    account.phrase.map((word, i) => `${i + 1}. ${word}`),
  );
  await expect(page.getByRole('button', { name: 'Copy to Clipboard' })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'secret-combination-phrase');

  // Leaving and coming back asks for the password again.
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expectDashboard(page);
  await openFromMenu(page);
  await expect(phraseList(page)).toHaveCount(0);

  // So does opening the address directly.
  await page.goto('/secret-combination');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Password Verification' }),
  ).toBeVisible();
  await expect(phraseList(page)).toHaveCount(0);
});

test('after the phrase was used, the new one is confirmed by typing it back', async ({ page }) => {
  const account = await createCustomer(page, 'phrase-confirm');
  const origin = new URL(test.info().project.use.baseURL ?? '').origin;
  // Using the phrase burns it and starts a security hold (product.md S10).
  const reset = await page.request.post('/api/auth/reset-password', {
    data: { recoveryPhrase: account.phrase.join(' '), newPassword: NEW_PASSWORD },
    headers: { origin },
  });
  expect(reset.status()).toBe(200);

  // Back in, the portal sends the customer to make a new phrase, behind the password.
  await signIn(page, account.email, NEW_PASSWORD);
  await verifyWithCode(page, account.secret, account.lastCode);
  await expect(page).toHaveURL(/\/secret-combination$/);
  await page.getByLabel('Account password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: 'Generate Seed Phrase' }).click();
  const items = phraseList(page).getByRole('listitem');
  await expect(items).toHaveCount(12);
  const words = (await items.allInnerTexts()).map((t) => t.replace(/^\s*\d+\.\s*/, '').trim());
  expect(words.join(' ')).not.toBe(account.phrase.join(' '));
  // The way on is to confirm it, not the dashboard.
  await expect(page.getByText(/type them back to confirm your copy/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue to Dashboard' })).toHaveCount(0);
  await snap(page, 'secret-combination-new-phrase');

  await page.getByRole('button', { name: 'I have written it down' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirm your seed phrase' }),
  ).toBeVisible();
  // The phrase is out of sight while it is typed back.
  await expect(phraseList(page)).toHaveCount(0);
  const field = page.getByLabel('Your 12-word seed phrase');
  await expectAccessible(page);
  await snap(page, 'secret-combination-confirm');

  // Eleven words: refused in the form.
  await field.fill(words.slice(1).join(' '));
  await page.getByRole('button', { name: 'Confirm phrase' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Recovery phrase must contain exactly 12 words' }),
  ).toBeVisible();

  // Twelve words, two of them swapped: the server says they do not match.
  await field.fill([words[1], words[0], ...words.slice(2)].join(' '));
  await page.getByRole('button', { name: 'Confirm phrase' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Those words do not match your recovery phrase.' }),
  ).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await snap(page, 'secret-combination-confirm-error');

  // Looking again, then the right words, typed loosely.
  await page.getByRole('button', { name: 'Show the phrase again' }).click();
  await expect(items).toHaveCount(12);
  await page.getByRole('button', { name: 'I have written it down' }).click();
  await field.fill(` ${words.join('  ').toUpperCase()} `);
  await page.getByRole('button', { name: 'Confirm phrase' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Seed phrase confirmed' }),
  ).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'secret-combination-confirmed');

  // The hold now waits only for its time, no longer for a phrase.
  const hold = await page.request.get('/api/security/hold');
  expect(await hold.json()).toMatchObject({ onHold: true, needsNewPhrase: false });
  await page.getByRole('link', { name: 'Continue to Dashboard' }).click();
  await expectDashboard(page);
});
