import { expect, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import { createCustomer, expectDashboard } from './support/flows';
import { snap } from './support/shots';

/** '0.000123 ETH' as a number of ETH. */
function eth(text: string | null): number {
  const match = /^([\d,]+\.\d+) ETH$/.exec(text ?? '');
  if (!match?.[1]) throw new Error(`not an ETH amount: ${text}`);
  return Number(match[1].replace(/,/g, ''));
}

test('ETH held is staked: the board shows the rate a year, a countdown and a ticking accrual', async ({
  page,
}) => {
  const account = await createCustomer(page, 'staking');
  const main = page.getByRole('main');

  // Without ETH there is nothing to stake.
  await expect(main.getByRole('heading', { name: 'ETH Staking' })).toBeVisible();
  await expect(main.getByText('Not Staking', { exact: true })).toBeVisible();
  await expect(main.getByText('Hold ETH in your wallet to start earning.')).toBeVisible();

  creditDeposit(account.email, 'ETH', '2', uniqueTxHash());
  await page.reload();
  await expectDashboard(page);

  await expect(main.getByText('Staking Active', { exact: true })).toBeVisible();
  await expect(main.getByText(/^Earning for \d+h \d{2}m \d{2}s$/)).toBeVisible();
  // The operator's rate, with what it makes in a year; nothing like 0.65 % a day.
  await expect(
    main.getByText('0.01% daily, about 3.7% a year, variable, not guaranteed', { exact: true }),
  ).toBeVisible();
  await expect(main.getByText('0.65%')).toHaveCount(0);
  await expect(main.getByText('Jul 10, 2025', { exact: true })).toBeVisible();
  // 2 ETH x 0.01 % a day.
  await expect(main.getByText('0.000200 ETH', { exact: true })).toBeVisible();

  // A countdown to the next credit, 24 hours after the ETH arrived.
  const countdown = main.getByText(/^in (23h [0-5]\d|24h 00)m [0-5]\ds$/);
  await expect(countdown).toBeVisible();
  await expect(main.getByRole('progressbar', { name: 'Next credit' })).toBeVisible();

  // The pending accrual reads as ETH does everywhere, to 6 decimals (2 ETH earn 0.000002 ETH
  // in about 7 minutes); the countdown runs down second by second.
  const figure = (label: string) =>
    main.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]');
  await expect(figure('Pending accrual')).toHaveText(/^\d+\.\d{6} ETH$/);
  expect(eth(await figure('Pending accrual').textContent())).toBeLessThan(0.0002);
  for (const label of ['Wallet ETH balance', 'Daily earnings', 'Credited rewards']) {
    await expect(figure(label)).toHaveText(/^[\d,]+\.\d{6} ETH$/);
  }
  const countdownBefore = await countdown.textContent();
  await expect(countdown).not.toHaveText(countdownBefore ?? '', { timeout: 3_000 });

  await expectAccessible(page);
  await snap(page, 'dashboard-staking');
});
