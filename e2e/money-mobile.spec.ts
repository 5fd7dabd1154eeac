import { expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import { createCustomer, sidebar, stepUpDialog } from './support/flows';

test.use({ viewport: { width: 375, height: 812 } });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** Nothing sticks out sideways at 375 px. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `horizontal overflow in px on ${page.url()}`).toBeLessThanOrEqual(0);
}

/** Opens the slide-in menu and follows one of its entries. */
async function goByMenu(page: Page, entry: string): Promise<void> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await menu.getByRole('link', { name: entry, exact: true }).click();
  await expect(menu).toBeHidden();
}

test('on a phone the money screens fit, pass the accessibility check and are in the menu', async ({
  page,
}) => {
  const account = await createCustomer(page, 'money-mobile');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());
  await page.reload();
  await expect(sidebar(page)).toBeHidden();

  // The dashboard with a balance.
  const bitcoin = page.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(bitcoin).toContainText('0.50000000 BTC');
  await expect(bitcoin).toContainText('$32,500.00');
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);

  // The menu lists the money screens.
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu.getByRole('link')).toHaveText([
    'Dashboard',
    'Deposit',
    'Withdraw',
    'Bank Transfer',
    'History',
    'Verification',
    'Secret Combination',
    'Support',
    'Settings',
  ]);
  await expectAccessible(page);
  await menu.getByRole('button', { name: 'Close menu' }).click();
  await expect(menu).toBeHidden();

  // The withdraw page, with a message showing.
  await goByMenu(page, 'Withdraw');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw Funds' })).toBeVisible();
  await page.getByLabel('Cryptocurrency').selectOption({ label: 'BTC - Bitcoin' });
  await page.getByLabel('Amount', { exact: true }).fill('2');
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: 'Insufficient balance.' }),
  ).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);

  // The review and the step-up dialog fit too, the whole address in each; Cancel sends nothing.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/withdrawals') {
      sent.push(request.url());
    }
  });
  await page.getByLabel('Amount', { exact: true }).fill('0.1');
  await page.getByLabel('Destination address').fill(BTC_ADDRESS);
  await page.getByRole('button', { name: 'Submit Withdrawal Request' }).click();
  const review = page.getByRole('region', { name: 'Review your withdrawal' });
  await expect(review.getByText(BTC_ADDRESS, { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await review.getByRole('button', { name: 'Confirm and continue' }).click();
  const dialog = stepUpDialog(page);
  await expect(dialog).toContainText(`0.1 BTC to ${BTC_ADDRESS}`);
  // The address breaks inside the word rather than running out of the dialog sideways.
  const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, 'horizontal overflow in px inside the dialog').toBeLessThanOrEqual(0);
  await expect(dialog.getByRole('button', { name: 'Confirm withdrawal' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(sent).toEqual([]);

  // The history.
  await goByMenu(page, 'History');
  await expect(page.getByRole('heading', { level: 1, name: 'Transaction History' })).toBeVisible();
  await expect(page.getByRole('article', { name: /^Deposit, / })).toContainText('+0.50000000 BTC');
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);

  // And the other two entries lead where they say.
  await goByMenu(page, 'Deposit');
  await expect(page.getByRole('heading', { level: 1, name: 'Deposit' })).toBeVisible();
  await goByMenu(page, 'Bank Transfer');
  await expect(page.getByRole('heading', { level: 1, name: 'Bank Transfer' })).toBeVisible();
  // Paid from the BTC balance: the option and what it would take fit the narrow screen.
  await page.getByLabel('Amount (AUD)').fill('100');
  await page.getByRole('radio', { name: /^BTC · Bitcoin/ }).check();
  await expect(page.getByText('Held from your BTC: 0.00100662 BTC', { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
});
