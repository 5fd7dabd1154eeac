import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import { expectDashboard, registerCustomer, sidebar } from './support/flows';
import { snap } from './support/shots';

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

  // A wrong password keeps it closed.
  await page.getByLabel('Account password').fill(`${account.password}-wrong`);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Invalid password', { exact: true })).toBeVisible();
  await expect(page.getByText('The password you entered is incorrect.')).toBeVisible();
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
