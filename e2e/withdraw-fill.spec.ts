import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import { createCustomer, scrollToTop, toasts } from './support/flows';
import { snap } from './support/shots';

// One customer with 0.5 BTC, 1 ETH and 10 USDT on ERC-20 (none on TRC-20), filling the
// withdraw form without typing: Max, Paste and, where the device can, a QR code. Nothing
// here sends a withdrawal. Serial: one signed-in page throughout.
test.describe.configure({ mode: 'serial' });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** USDT's contract on Ethereum: a token transfer's URI names it before the receiver. */
const USDT_CONTRACT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

let context: BrowserContext;
let page: Page;
/** Every withdrawal request the browser sent. */
const sent: string[] = [];

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/withdrawals') {
      sent.push(request.postData() ?? '');
    }
  });
  const account = await createCustomer(page, 'withdraw-fill');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());
  creditDeposit(account.email, 'ETH', '1', uniqueTxHash());
  creditDeposit(account.email, 'USDT-ERC20', '10', uniqueTxHash());
});

test.afterAll(async () => {
  expect(sent).toEqual([]);
  await context.close();
});

const form = {
  asset: () => page.getByLabel('Cryptocurrency'),
  amount: () => page.getByLabel('Amount', { exact: true }),
  address: () => page.getByLabel('Destination address'),
  max: () => page.getByRole('button', { name: /^Max/ }),
  paste: () => page.getByRole('button', { name: 'Paste' }),
  scan: () => page.getByRole('button', { name: 'Scan a QR code' }),
  submit: () => page.getByRole('button', { name: 'Submit Withdrawal Request' }),
};

async function openWithdraw(): Promise<void> {
  await page.goto('/dashboard/withdraw');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw Funds' })).toBeVisible();
}

/** Puts text on the clipboard, as copying it in another app would. */
async function copy(text: string): Promise<void> {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
}

test('Max on the page of all assets fills the chosen balance less its network fee', async () => {
  await openWithdraw();
  // No asset, no balance to take.
  await expect(form.max()).toBeDisabled();

  await form.asset().selectOption({ label: 'BTC - Bitcoin' });
  await expect(page.getByText('Available: 0.50000000 BTC', { exact: true })).toBeVisible();
  await form
    .max()
    .and(
      page.getByRole('button', { name: 'Max: available balance minus the 0.0001 BTC network fee' }),
    )
    .click();
  await expect(form.amount()).toHaveValue('0.4999');
  await expect(page.getByText(/^Total\s*0\.50000000 BTC$/)).toBeVisible();

  await form.asset().selectOption({ label: 'ETH - Ethereum' });
  await form.max().click();
  await expect(form.amount()).toHaveValue('0.998');
  await expect(page.getByText(/^Total\s*1\.000000 ETH$/)).toBeVisible();

  await form.asset().selectOption({ label: 'USDT - Tether (ERC-20)' });
  await form.max().click();
  await expect(form.amount()).toHaveValue('9.998');
  await expect(page.getByText(/^Total\s*10\.00 USDT$/)).toBeVisible();

  // Nothing on TRC-20: Max fills 0, and the message says the balance is short.
  await form.asset().selectOption({ label: 'USDT - Tether (TRC-20)' });
  await form.max().click();
  await expect(form.amount()).toHaveValue('0');
  await expect(
    page.getByRole('main').getByRole('alert').filter({
      hasText:
        'Insufficient balance. Available: 0.00000000 USDT (Wallet: 0.00000000, Staking: 0.00000000)',
    }),
  ).toBeVisible();
  await expect(form.submit()).toBeDisabled();
  // A 0 typed by hand keeps its own message.
  await form.amount().fill('');
  await form.amount().fill('0');
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: 'Amount must be greater than 0' }),
  ).toBeVisible();

  // Max's amount goes through to the review: the whole balance leaves, the fee in it.
  await form.asset().selectOption({ label: 'BTC - Bitcoin' });
  await form.max().click();
  await form.address().fill(BTC_ADDRESS);
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'withdraw-max');
  await form.submit().click();
  const review = page.getByRole('region', { name: 'Review your withdrawal' });
  await expect(review.getByText(/^Recipient receives\s*0\.49990000 BTC$/)).toBeVisible();
  await expect(review.getByText(/^Total from your balance\s*0\.50000000 BTC$/)).toBeVisible();
  await review.getByRole('button', { name: 'Edit' }).click();
  await expect(form.amount()).toHaveValue('0.4999');
});

test('a memo or tag is asked for on no network Coffer offers', async () => {
  for (const slug of ['btc', 'eth', 'usdterc20', 'usdttrc20']) {
    await page.goto(`/withdraw/${slug}`);
    await expect(form.address()).toBeVisible();
    await expect(form.amount()).toBeVisible();
    await expect(page.getByLabel(/Memo/)).toHaveCount(0);
  }
  await openWithdraw();
  for (const label of [
    'BTC - Bitcoin',
    'ETH - Ethereum',
    'USDT - Tether (ERC-20)',
    'USDT - Tether (TRC-20)',
  ]) {
    await form.asset().selectOption({ label });
    await expect(form.address()).toBeVisible();
    await expect(page.getByLabel(/Memo/)).toHaveCount(0);
  }
});

test('Paste fills the address from the clipboard; a payment URI gives its address, never its amount', async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/withdraw/btc');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw BTC' })).toBeVisible();

  await copy(`bitcoin:${BTC_ADDRESS}?amount=0.3&label=Savings`);
  await form.paste().click();
  await expect(form.address()).toHaveValue(BTC_ADDRESS);
  await expect(form.amount()).toHaveValue('');
  await expect(toasts(page).getByText('Address filled in')).toBeVisible();
  await expect(
    toasts(page).getByText(
      'The code also named an amount. Enter the amount you mean to send yourself.',
    ),
  ).toBeVisible();
  await expectAccessible(page);
  await scrollToTop(page);
  await snap(page, 'withdraw-pasted');

  // A bare address, with the spaces a copy picks up, on the page of all assets.
  await openWithdraw();
  await form.asset().selectOption({ label: 'ETH - Ethereum' });
  await copy(`  ${ETH_ADDRESS}\n`);
  await form.paste().click();
  await expect(form.address()).toHaveValue(ETH_ADDRESS);

  // A token transfer's URI pays its receiver, not the token's contract.
  await form.asset().selectOption({ label: 'USDT - Tether (ERC-20)' });
  await copy(`ethereum:${USDT_CONTRACT}@1/transfer?address=${ETH_ADDRESS}&uint256=5000000`);
  await form.address().fill('');
  await form.paste().click();
  await expect(form.address()).toHaveValue(ETH_ADDRESS);
  await expect(form.amount()).toHaveValue('');

  // Something that pays no one is not pasted.
  await form.address().fill('');
  await copy(`ethereum:${USDT_CONTRACT}@1/approve?address=${ETH_ADDRESS}&uint256=1`);
  await form.paste().click();
  await expect(
    toasts(page).getByText(
      'This is no address Coffer can send to. Copy or show the address itself, or type it.',
    ),
  ).toBeVisible();
  await expect(form.address()).toHaveValue('');
});

test('Paste refused by the browser says how to paste by hand, and changes nothing', async () => {
  await context.clearPermissions();
  await openWithdraw();
  await form.asset().selectOption({ label: 'BTC - Bitcoin' });
  await form.address().fill(BTC_ADDRESS);
  await form.paste().click();
  await expect(toasts(page).getByText('Paste failed')).toBeVisible();
  await expect(
    toasts(page).getByText(
      'Coffer was not allowed to read your clipboard. Allow clipboard access for this site in your browser, or paste into the field with Ctrl+V (⌘V on a Mac) or a long press.',
    ),
  ).toBeVisible();
  await expect(form.address()).toHaveValue(BTC_ADDRESS);
});

test('no QR scan where the browser cannot read codes (this headless one has no reader or camera)', async () => {
  await openWithdraw();
  await form.asset().selectOption({ label: 'BTC - Bitcoin' });
  await expect(form.paste()).toBeVisible();
  expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
  await expect(form.scan()).toHaveCount(0);
  await page.goto('/withdraw/eth');
  await expect(form.address()).toBeVisible();
  await expect(form.scan()).toHaveCount(0);
});

test('with a camera and a QR reader the scan fills the address, never the amount', async () => {
  // A phone's reader and camera, stood in for: the reader reads what the test puts in
  // window.qrText, the camera shows a painted canvas (or refuses while cameraRefused is set).
  const scanPage = await context.newPage();
  await scanPage.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    w.qrText = '';
    w.cameraRefused = false;
    w.BarcodeDetector = class {
      static async getSupportedFormats() {
        return ['qr_code'];
      }
      async detect() {
        const text = String(w.qrText);
        return text === '' ? [] : [{ rawValue: text }];
      }
    };
    const media = navigator.mediaDevices;
    media.enumerateDevices = async () =>
      [{ kind: 'videoinput', deviceId: 'camera', label: '', groupId: '' }] as MediaDeviceInfo[];
    media.getUserMedia = async () => {
      if (w.cameraRefused) throw new DOMException('Refused', 'NotAllowedError');
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 64;
      const paint = canvas.getContext('2d');
      setInterval(() => paint?.fillRect(0, 0, 64, 64), 50);
      const stream = canvas.captureStream(20);
      w.cameraStream = stream;
      return stream;
    };
  });
  const scan = scanPage.getByRole('button', { name: 'Scan a QR code' });
  const address = scanPage.getByLabel('Destination address');

  await scanPage.goto('/withdraw/btc');
  await expect(scan).toBeVisible();

  // The camera refused: the dialog says so, and how to go on.
  await scanPage.evaluate(() => {
    (window as unknown as Record<string, unknown>).cameraRefused = true;
  });
  await scan.click();
  const dialog = scanPage.getByRole('dialog', { name: 'Scan a QR code' });
  await expect(dialog.getByRole('alert')).toHaveText(
    'Camera access was refused. Allow the camera for this site in your browser settings, or paste the address instead.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await scanPage.evaluate(() => {
    (window as unknown as Record<string, unknown>).cameraRefused = false;
  });
  await scan.click();
  await expect(dialog.getByLabel('Camera picture')).toBeVisible();
  await expectAccessible(scanPage);
  await snap(scanPage, 'withdraw-scan');

  // A code that pays no one: said, and the camera keeps looking.
  await scanPage.evaluate((text) => {
    (window as unknown as Record<string, unknown>).qrText = text;
  }, `ethereum:${USDT_CONTRACT}/approve?address=${ETH_ADDRESS}`);
  await expect(dialog.getByRole('alert')).toHaveText(
    'This is no address Coffer can send to. Copy or show the address itself, or type it.',
  );
  await expect(dialog).toBeVisible();

  // A wallet's payment code: the address is filled in, its amount is not, the camera stops.
  await scanPage.evaluate((text) => {
    (window as unknown as Record<string, unknown>).qrText = text;
  }, `bitcoin:${BTC_ADDRESS}?amount=0.25`);
  await expect(dialog).toBeHidden();
  await expect(address).toHaveValue(BTC_ADDRESS);
  await expect(scanPage.getByLabel('Amount', { exact: true })).toHaveValue('');
  await expect(toasts(scanPage).getByText('Address filled in')).toBeVisible();
  expect(
    await scanPage.evaluate(() =>
      ((window as unknown as Record<string, unknown>).cameraStream as MediaStream)
        .getTracks()
        .map((track) => track.readyState),
    ),
  ).toEqual(['ended']);
  await scanPage.close();
});
