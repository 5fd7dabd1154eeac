import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import { createCustomer, sidebar } from './support/flows';
import { snap } from './support/shots';

test('the dark theme switch applies at once and survives a reload', async ({ page }) => {
  const account = await createCustomer(page, 'settings');
  const html = page.locator('html');

  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByText(account.email, { exact: true }).last()).toBeVisible();
  await expect(page.getByText(/^Two-factor authentication\s*Enabled$/)).toBeVisible();

  // Light by default.
  const darkMode = page.getByRole('switch', { name: 'Dark mode' });
  await expect(darkMode).not.toBeChecked();
  await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await expectAccessible(page);
  await snap(page, 'settings');

  await darkMode.click();
  await expect(darkMode).toBeChecked();
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(page.getByText('The dark theme is on.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(darkMode).toBeChecked();

  // And back to light, which also stays.
  await darkMode.click();
  await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(darkMode).not.toBeChecked();
});
