import { STEP_UP_MSG } from '@coffer/shared';
import { expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, freshCode, uniqueTxHash } from './support/app';
import { withSetting } from './support/db';
import {
  type Account,
  confirmStepUp,
  createCustomer,
  expectDashboard,
  scrollToTop,
  stepUpDialog,
  toasts,
  wrongCode,
} from './support/flows';
import { snap } from './support/shots';

// One customer with 0.5 BTC and 1 ETH. The refusals come first and must leave both
// untouched; then two real withdrawals hold their amount + fee. Each request is confirmed
// in the step-up dialog with a fresh second factor (a backup code unless said otherwise). Serial: each test builds
// on the balances the one before left.
test.describe.configure({ mode: 'serial' });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** The same address with its last character changed: the bech32 checksum no longer holds. */
const BTC_ADDRESS_BAD_CHECKSUM = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

let page: Page;
let account: Account;
/** Every withdrawal request the browser sent. */
const sent: string[] = [];

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/withdrawals') {
      sent.push(request.postData() ?? '');
    }
  });
  account = await createCustomer(page, 'withdraw');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());
  creditDeposit(account.email, 'ETH', '1', uniqueTxHash());
});

test.afterAll(async () => {
  await page.context().close();
});

const form = {
  asset: () => page.getByLabel('Cryptocurrency'),
  amount: () => page.getByLabel('Amount', { exact: true }),
  address: () => page.getByLabel('Destination address'),
  submit: () => page.getByRole('button', { name: 'Submit Withdrawal Request' }),
};

/** The review of a checked request, shown in the form's place before the second factor. */
function review() {
  return page.getByRole('region', { name: 'Review your withdrawal' });
}

/** Confirms the review; the step-up dialog follows. */
async function confirmReview(): Promise<void> {
  await review().getByRole('button', { name: 'Confirm and continue' }).click();
}

/** A field's message on the withdraw form. */
function fieldMessage(text: string) {
  return page.getByRole('main').getByRole('alert').filter({ hasText: text });
}

async function openWithdraw(): Promise<void> {
  await page.goto('/dashboard/withdraw');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw Funds' })).toBeVisible();
}

/** What the customer has: the history count and the available BTC and ETH. */
async function expectFunds(transactions: number, btc: string, eth: string): Promise<void> {
  await page.goto('/dashboard/history');
  await expect(page.getByText(`${transactions} Transaction(s)`, { exact: true })).toBeVisible();
  await openWithdraw();
  await form.asset().selectOption({ label: 'BTC - Bitcoin' });
  await expect(page.getByText(`Available: ${btc} BTC`, { exact: true })).toBeVisible();
  await form.asset().selectOption({ label: 'ETH - Ethereum' });
  await expect(
    page.getByText(new RegExp(`^Available: ${eth.replace('.', '\\.')} ETH `)),
  ).toBeVisible();
}

test('the withdraw form shows the message for each bad input and sends nothing', async () => {
  await openWithdraw();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  await expect(page.getByText('Security notice')).toBeVisible();
  await expect(form.submit()).toBeDisabled();

  // An amount and an address, but no cryptocurrency.
  await form.amount().fill('0.1');
  await form.address().fill(BTC_ADDRESS);
  await expect(fieldMessage('Please select a cryptocurrency')).toBeVisible();
  await expect(form.submit()).toBeDisabled();

  await form.asset().selectOption({ label: 'BTC - Bitcoin' });
  await expect(fieldMessage('Please select a cryptocurrency')).toHaveCount(0);
  await expect(page.getByText('Available: 0.50000000 BTC', { exact: true })).toBeVisible();
  await expect(form.submit()).toBeEnabled();

  // Amount 0.
  await form.amount().fill('0');
  await expect(fieldMessage('Amount must be greater than 0')).toBeVisible();
  await expect(form.submit()).toBeDisabled();

  // No address.
  await form.amount().fill('0.1');
  await form.address().fill('');
  await form.address().blur();
  await expect(fieldMessage('Withdrawal address is required')).toBeVisible();
  await expect(form.submit()).toBeDisabled();
  await form.address().fill(BTC_ADDRESS);

  // More than there is; the whole balance is too much too, since the fee comes on top.
  const insufficient =
    'Insufficient balance. Available: 0.50000000 BTC (Wallet: 0.50000000, Staking: 0.00000000)';
  await form.amount().fill('1');
  await expect(fieldMessage(insufficient)).toBeVisible();
  await expect(form.submit()).toBeDisabled();
  await form.amount().fill('0.5');
  await expect(fieldMessage(insufficient)).toBeVisible();
  await expect(form.submit()).toBeDisabled();
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'withdraw-insufficient');

  // Not a Bitcoin address at all, then one with a typo the checksum catches.
  await form.amount().fill('0.1');
  await form.address().fill('my-bitcoin-address');
  await expect(fieldMessage('Invalid Bitcoin address format')).toBeVisible();
  await expect(form.submit()).toBeDisabled();
  await form.address().fill(BTC_ADDRESS_BAD_CHECKSUM);
  await expect(
    fieldMessage('Invalid Bitcoin address checksum. Check the address and try again.'),
  ).toBeVisible();
  await expect(form.submit()).toBeDisabled();

  // Enter does not submit a form whose button is disabled.
  await form.address().press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/withdraw$/);

  // Nothing was sent, and nothing changed.
  expect(sent).toEqual([]);
  await expectFunds(2, '0.50000000', '1.000000');
});

test('while withdrawals are turned off the server refuses the request with its message', async () => {
  // The form was loaded while withdrawals were on; the operator turns them off meanwhile.
  const statusLoaded = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/money/status',
  );
  await openWithdraw();
  await statusLoaded;
  const message =
    'Withdrawals and bank transfers are turned off at the moment. Please try again later or contact support.';

  await withSetting(page, 'withdrawals_enabled', 'false', async () => {
    await form.asset().selectOption({ label: 'BTC - Bitcoin' });
    await form.amount().fill('0.1');
    await form.address().fill(BTC_ADDRESS);
    await form.submit().click();
    await confirmReview();
    // The page does not know yet: it asks for the second factor, and the server refuses.
    await confirmStepUp(page, account, { title: 'Confirm your withdrawal' });

    await expect(toasts(page).getByText(message)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/withdraw$/);
    // The page now knows: it says so above the form in the same words as under the
    // button, and stops.
    await expect(
      page.getByRole('alert').filter({ hasText: 'Withdrawals unavailable' }),
    ).toContainText(message);
    await expect(page.getByRole('main').getByText(message, { exact: true })).toHaveCount(2);
    await expect(form.submit()).toBeDisabled();
    expect(sent).toHaveLength(1);

    // Opened afresh, it says so at once.
    await openWithdraw();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Withdrawals unavailable' }),
    ).toContainText(message);
    await expect(form.submit()).toBeDisabled();
    await expectAccessible(page);
    await scrollToTop(page);
    await snap(page, 'withdraw-turned-off');
  });

  await expectFunds(2, '0.50000000', '1.000000');
});

test('over the daily limit the server says how much is left today', async () => {
  await withSetting(page, 'max_daily_withdrawal', '1000', async () => {
    await openWithdraw();
    await form.asset().selectOption({ label: 'BTC - Bitcoin' });
    await form.amount().fill('0.1');
    await form.address().fill(BTC_ADDRESS);
    // 0.1 BTC is $6,500.00 at the feed price (the fee does not count toward the limit): the page warns, the server decides.
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'This withdrawal is worth about $6,500.00' })
        .filter({ hasText: 'more than the $1,000.00 you can still withdraw today.' }),
    ).toBeVisible();
    await form.submit().click();
    await confirmReview();
    await confirmStepUp(page, account, { title: 'Confirm your withdrawal' });
    const refusal =
      'This withdrawal would exceed your daily limit of $1,000.00. You can withdraw $1,000.00 more today.';
    await expect(toasts(page).getByText(refusal)).toBeVisible();
    await expect(fieldMessage(refusal)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/withdraw$/);
  });

  await expectFunds(2, '0.50000000', '1.000000');
});

test('a valid withdrawal is held from the balance and listed as pending', async () => {
  await openWithdraw();
  await form.asset().selectOption({ label: 'BTC - Bitcoin' });
  await form.amount().fill('0.1');
  await form.address().fill(BTC_ADDRESS);
  // What leaves the wallet: the amount and the network fee on top.
  await expect(page.getByText(/^You send\s*0\.10000000 BTC$/)).toBeVisible();
  await expect(page.getByText(/^Network fee\s*0\.00010000 BTC$/)).toBeVisible();
  await expect(page.getByText(/^Total\s*0\.10010000 BTC$/)).toBeVisible();
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'withdraw-filled');
  await form.submit().click();

  // The review says what leaves, what arrives and where, the address whole; nothing is sent.
  await expect(review().getByRole('heading', { name: 'Review your withdrawal' })).toBeFocused();
  await expect(review().getByText(/^Amount\s*0\.10000000 BTC$/)).toBeVisible();
  await expect(review().getByText(/^Network fee\s*0\.00010000 BTC$/)).toBeVisible();
  await expect(review().getByText(/^Recipient receives\s*0\.10000000 BTC$/)).toBeVisible();
  await expect(review().getByText(/^Total from your balance\s*0\.10010000 BTC$/)).toBeVisible();
  await expect(review().getByText('To (Bitcoin Network)', { exact: true })).toBeVisible();
  await expect(review().getByText(BTC_ADDRESS, { exact: true })).toBeVisible();
  await expect(review()).not.toContainText('Memo');
  await expect(form.amount()).toHaveCount(0);
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'withdraw-review');

  // Edit goes back to the form as it was filled in.
  await review().getByRole('button', { name: 'Edit' }).click();
  await expect(review()).toHaveCount(0);
  await expect(form.asset()).toHaveValue('BTC');
  await expect(form.amount()).toHaveValue('0.1');
  await expect(form.address()).toHaveValue(BTC_ADDRESS);
  await expect(form.submit()).toBeFocused();
  await expect(form.submit()).toBeEnabled();
  expect(sent).toHaveLength(2);

  // Confirmed in the review, the second factor is asked for.
  await form.submit().click();
  await confirmReview();

  // The step-up dialog says what is being confirmed, and has no passkey to offer.
  const dialog = stepUpDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Confirm your withdrawal' })).toBeVisible();
  await expect(dialog).toContainText(`0.1 BTC to ${BTC_ADDRESS}`);
  await expect(dialog.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
  const code = dialog.getByLabel('Authentication code');
  const confirm = dialog.getByRole('button', { name: 'Confirm withdrawal' });
  await expectAccessible(page);
  await snap(page, 'withdraw-step-up');

  // Something that is no code is refused in the dialog, before anything is sent.
  const before = sent.length;
  await code.fill('12');
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText(STEP_UP_MSG.required);
  expect(sent).toHaveLength(before);

  // A wrong code: the server refuses it, the dialog stays open with its message, and the
  // field is emptied for another try.
  await code.fill(wrongCode(account.secret));
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText(STEP_UP_MSG.invalid);
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toHaveValue('');
  expect(sent).toHaveLength(before + 1);
  await expectAccessible(page);
  await snap(page, 'withdraw-step-up-wrong-code');

  // Nothing was requested: in another tab, the balance is whole and nothing is on hold.
  const other = await page.context().newPage();
  await other.goto('/dashboard');
  const whole = other.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(whole).toContainText('0.50000000 BTC');
  await expect(whole).not.toContainText('on hold');
  await other.goto('/dashboard/history');
  await expect(other.getByText('2 Transaction(s)', { exact: true })).toBeVisible();
  await other.close();

  // The right code, from the authenticator app, goes through.
  account.lastCode = await freshCode(account.secret, account.lastCode);
  await code.fill(account.lastCode);
  await confirm.click();
  await expect(dialog).toBeHidden();

  await expect(toasts(page).getByText('Withdrawal request submitted successfully')).toBeVisible();
  await expectDashboard(page);
  // The balance is still 0.5 BTC, of which 0.1001 is held until staff pay it out.
  const bitcoin = page.getByRole('main').getByRole('link', { name: /^Bitcoin BTC/ });
  await expect(bitcoin).toContainText('0.50000000 BTC');
  await expect(bitcoin).toContainText('0.10010000 on hold');

  // The held amount cannot be withdrawn again: 0.5 - 0.1 - 0.0001 is available.
  await expectFunds(3, '0.39990000', '1.000000');

  await page.goto('/dashboard/history');
  const withdrawal = page.getByRole('article', { name: /^Withdrawal, / });
  await expect(withdrawal).toHaveCount(1);
  await expect(withdrawal.getByText('pending', { exact: true })).toBeVisible();
  await expect(withdrawal).toContainText('−0.10000000 BTC');
  await expect(withdrawal).toContainText(/Network fee:\s*0\.00010000 BTC/);
  await expect(withdrawal).toContainText(new RegExp(`To:\\s*${BTC_ADDRESS}`));
});

test('the ETH page: Max is the available balance minus the fee, and the request is real', async () => {
  await page.goto('/withdraw/eth');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw ETH' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Withdraw' })).toBeVisible();
  await expect(page.getByText(/^Available:\s*1\.000000 ETH$/)).toBeVisible();
  const submit = page.getByRole('button', { name: 'Withdraw ETH' });
  await expect(submit).toBeDisabled();

  // 1 ETH available, 0.002 ETH network fee.
  await page.getByRole('button', { name: /^Max/ }).click();
  await expect(page.getByLabel('Amount', { exact: true })).toHaveValue('0.998');
  await expect(page.getByText(/^Total\s*1\.000000 ETH$/)).toBeVisible();
  await expect(submit).toBeDisabled();
  await page.getByLabel('Destination address').fill('0x1234');
  await expect(fieldMessage('Invalid Ethereum address format')).toBeVisible();
  await expect(submit).toBeDisabled();
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'withdraw-eth-error');

  await page.getByLabel('Destination address').fill(ETH_ADDRESS);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(review().getByText(/^Amount\s*0\.998000 ETH$/)).toBeVisible();
  await expect(review().getByText(/^Total from your balance\s*1\.000000 ETH$/)).toBeVisible();
  await expect(review().getByText('To (Ethereum Network)', { exact: true })).toBeVisible();
  await expect(review().getByText(ETH_ADDRESS, { exact: true })).toBeVisible();
  await confirmReview();
  await confirmStepUp(page, account, {
    title: 'Confirm your withdrawal',
    says: `0.998 ETH to ${ETH_ADDRESS}`,
  });
  await expect(toasts(page).getByText('Withdrawal Initiated', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page.getByText('4 Transaction(s)', { exact: true })).toBeVisible();
  const newest = page.getByRole('article').first();
  await expect(newest).toHaveAccessibleName(/^Withdrawal, /);
  await expect(newest).toContainText('−0.998000 ETH');
  await expect(newest.getByText('pending', { exact: true })).toBeVisible();
  await expect(newest).toContainText(new RegExp(`To:\\s*${ETH_ADDRESS}`));

  // Nothing is left to withdraw: Max fills 0, and the message says the balance is short.
  await page.goto('/withdraw/eth');
  await expect(page.getByText(/^Available:\s*0\.000000 ETH$/)).toBeVisible();
  await page.getByRole('button', { name: /^Max/ }).click();
  await expect(page.getByLabel('Amount', { exact: true })).toHaveValue('0');
  // (Staking accrues meanwhile and is quoted, but it is not withdrawable.)
  await expect(
    page
      .getByRole('main')
      .getByRole('alert')
      .filter({
        hasText:
          /^Insufficient balance\. Available: 0\.00000000 ETH \(Wallet: 0\.00000000, Staking: \d+\.\d{8}\)$/,
      }),
  ).toBeVisible();
  await expect(submit).toBeDisabled();
  // Turned off, over the limit, the wrong code, then the two that went through.
  expect(sent).toHaveLength(5);
});

test('an unknown cryptocurrency has no withdraw page', async () => {
  await page.goto('/withdraw/doge');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Cryptocurrency Not Found' }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Back to Withdraw' }).click();
  await expect(page).toHaveURL(/\/dashboard\/withdraw$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw Funds' })).toBeVisible();
  await expectAccessible(page);
});
