import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './support/app';
import { addDepositAddress, newBitcoinAddress, withSetting } from './support/db';
import { type Account, createCustomer, sidebar } from './support/flows';
import { expectToastsBelowTopBar, textInsetFromBorder } from './support/layout';
import { snap } from './support/shots';

// One customer: first without an address, then with the one staff give them.
test.describe.configure({ mode: 'serial' });

let page: Page;
let account: Account;
const address = newBitcoinAddress();

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  account = await createCustomer(page, 'deposit');
});

test.afterAll(async () => {
  await page.context().close();
});

test('without an address the deposit page says so; Refresh Addresses shows a new one', async () => {
  await sidebar(page).getByRole('link', { name: 'Deposit', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/deposit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Deposit' })).toBeVisible();
  await expect(page.getByText('Send cryptocurrency to these addresses')).toBeVisible();
  const empty = page.getByText('No deposit addresses available', { exact: true });
  await expect(empty).toBeVisible();
  // The card's padding above it: it does not sit on the card's border.
  expect(await textInsetFromBorder(empty)).toBeGreaterThanOrEqual(20);
  await expect(page.getByRole('heading', { name: 'How to Deposit' })).toBeVisible();
  for (const step of ['Copy an address', 'Send from an external wallet', 'Wait for confirmation']) {
    await expect(page.getByRole('main').getByText(step, { exact: true })).toBeVisible();
  }
  await expect(
    page.getByText('Your balance updates once the deposit is confirmed on the blockchain.'),
  ).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'deposit-no-addresses');

  // Staff give the customer a Bitcoin address; refreshing shows it without a reload.
  await addDepositAddress(account.email, { symbol: 'BTC', network: 'bitcoin', address });
  await page.getByRole('button', { name: 'Refresh Addresses' }).click();
  const card = page.getByRole('group', { name: 'BTC' });
  await expect(card).toBeVisible();
  await expect(page.getByText('No deposit addresses available')).toHaveCount(0);
});

test('an address card shows the network and the address, and copies it', async () => {
  await page.goto('/dashboard/deposit');
  const card = page.getByRole('group', { name: 'BTC' });
  await expect(card).toBeVisible();
  await expect(page.getByRole('main').getByRole('group')).toHaveCount(1);
  await expect(card.getByText('Bitcoin Network', { exact: true })).toBeVisible();
  await expect(card.getByText(address, { exact: true })).toBeVisible();
  await expect(card.getByText('Send only BTC (Bitcoin Network) to this address.')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'deposit-with-address');

  // At 1440 px the toast opens below the top bar: the e-mail and Logout stay uncovered.
  await page.setViewportSize({ width: 1440, height: 900 });
  const copy = card.getByRole('button', { name: 'Copy BTC Bitcoin Network address' });
  await copy.click();
  await expect(page.getByText('Address copied!', { exact: true })).toBeVisible();
  await expectToastsBelowTopBar(page);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(copy).toHaveText('Copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

  // And its QR code.
  await card
    .getByRole('button', { name: 'Show QR code of the BTC Bitcoin Network address' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'BTC deposit address' });
  await expect(
    dialog.getByRole('img', { name: 'QR code of your BTC Bitcoin Network deposit address' }),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('while the operator has deposits paused, the page explains it and shows no address', async () => {
  await withSetting(page, 'deposits_enabled', 'false', async () => {
    await page.goto('/dashboard/deposit');
    const paused = page.getByRole('status').filter({ hasText: 'Deposits are paused' });
    await expect(paused).toContainText(
      'Deposits are paused at the moment. Please do not send funds to a deposit address until deposits resume.',
    );
    await expect(page.getByText(address)).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'BTC' })).toHaveCount(0);
    await expect(page.getByText('No deposit addresses available')).toHaveCount(0);
    await expectAccessible(page);
    await snap(page, 'deposit-paused');

    // The asset page withholds it too.
    await page.goto('/dashboard/asset/btc');
    await expect(page.getByRole('heading', { level: 1, name: 'Bitcoin' })).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: 'Deposits are paused at the moment.' }),
    ).toBeVisible();
    await expect(page.getByText(address)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Copy Address' })).toHaveCount(0);
  });

  // Back on: the address is there again.
  await page.goto('/dashboard/deposit');
  await expect(page.getByRole('group', { name: 'BTC' }).getByText(address)).toBeVisible();
});
