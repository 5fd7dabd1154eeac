import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { creditDeposit, ownAddress, settled, showTheme, uniqueTxHash } from './support/app';
import { query } from './support/db';
import { type Account, createCustomer, signInNewAdminAccount } from './support/flows';
import { snap } from './support/shots';

// What a customer writes and uploads reaches staff safely and legibly: every file is saved
// under the name of what it is, customer text is isolated with hidden characters shown, and
// a 140-character value without a space never makes a staff screen wider than its window.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const RLO = '\u202E';
/** A 140-character value without a space (the longest a bank account name may be). */
const long = (start: string) => start + 'W'.repeat(140 - start.length);

const NAME = long(`Name${RLO}exe.fdp<img`);
const MEMO = long(`Memo${RLO}exe.fdp<img`);
const ACCOUNT_NAME = long(`Acct${RLO}exe.fdp<img`);
const KYC_NAME = long(`Kyc${RLO}exe.fdp<img`);
const ADDRESS = long(`Addr${RLO}exe.fdp<img`);
const PHONE = long('+61400000000');
const CHAT = long(`Chat${RLO}exe.fdp<img`);
const FILE_STEM = long('invoice').slice(0, 120);

/** How staff read a planted value: in typed order, the override shown as its code point. */
const shown = (value: string) => value.replace(RLO, '⟨U+202E⟩');

/**
 * A valid PDF that is also a web page: a script in a PDF comment, which no PDF reader runs
 * but a browser would if the file were saved as .html and opened.
 */
const POLYGLOT = Buffer.from(
  '%PDF-1.4\n%<html><script>document.title="ran"</script></html>\n' +
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
    'trailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

let contexts: BrowserContext[] = [];
let customer: Page;
let admin: Page;
let account: Account;

async function newPage(
  browser: import('@playwright/test').Browser,
  options: { acceptDownloads?: boolean } = {},
) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  await ownAddress(context);
  contexts.push(context);
  return context.newPage();
}

/** A POST from the page's session, as its own screens send it; the answer's body. */
async function post(page: Page, path: string, data: object, headers: Record<string, string> = {}) {
  const res = await page.request.post(path, {
    headers: { origin: new URL(page.url()).origin, ...headers },
    data,
  });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** Saves what clicking `button` downloads; the name the browser suggests. */
async function downloadName(page: Page, button: Locator): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return download.suggestedFilename();
}

test.beforeAll(async ({ browser }) => {
  // Two accounts, four payouts and uploads: slow on a busy machine.
  test.setTimeout(240_000);
  customer = await newPage(browser, { acceptDownloads: true });
  account = await createCustomer(customer, 'ctext');
  creditDeposit(account.email, 'ETH', '3', uniqueTxHash());
  creditDeposit(account.email, 'BTC', '1', uniqueTxHash());
  await query(
    'UPDATE user_profiles SET full_name = $2 WHERE id = (SELECT id FROM users WHERE email = $1)',
    [account.email, NAME],
  );

  // A crypto withdrawal carrying a memo, and a bank payout to a long account name.
  const { transaction } = await post(
    customer,
    '/api/withdrawals',
    {
      assetId: 'ETH',
      amount: '0.1',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      stepUp: { code: account.backupCodes[0] },
    },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  // No network of the catalogue takes a memo yet; one stored by an older Coffer is shown.
  await query('UPDATE transactions SET memo = $2 WHERE id = $1', [transaction.id, MEMO]);
  await post(
    customer,
    '/api/bank-transfers',
    {
      accountNumber: '12345678',
      accountName: ACCOUNT_NAME,
      bsbNumber: '062-000',
      amountAud: '50',
      assetId: 'BTC',
      stepUp: { code: account.backupCodes[1] },
    },
    { 'Idempotency-Key': crypto.randomUUID() },
  );

  // Identity documents: the front is the PDF that calls itself invoice.html.
  const kyc = await customer.request.post('/api/kyc', {
    headers: { origin: new URL(customer.url()).origin },
    multipart: {
      fullName: KYC_NAME,
      phoneNumber: '+61 400 000 000',
      address: ADDRESS,
      front: { name: `${FILE_STEM}.html`, mimeType: 'text/html', buffer: POLYGLOT },
    },
  });
  expect(kyc.status(), await kyc.text()).toBe(200);
  await query(
    'UPDATE kyc_submissions SET phone_number = $2 WHERE user_id = (SELECT id FROM users WHERE email = $1)',
    [account.email, PHONE],
  );

  admin = await newPage(browser, { acceptDownloads: true });
  await signInNewAdminAccount(admin, 'ctext-admin');
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
  contexts = [];
});

test('a customer sends a PDF called invoice.html in the chat; both sides save it as a PDF', async () => {
  await customer.goto('/dashboard/chat');
  await customer
    .locator('input[type="file"]')
    .setInputFiles({ name: 'invoice.html', mimeType: 'text/html', buffer: POLYGLOT });
  await customer.getByRole('textbox', { name: 'Message' }).fill(CHAT);
  await customer.getByRole('textbox', { name: 'Message' }).press('Enter');
  const mine = customer.getByRole('list', { name: 'Messages' });
  const download = mine.getByRole('button', { name: /^Download invoice\.pdf/ });
  await expect(download).toBeVisible();
  expect(await downloadName(customer, download)).toBe('invoice.pdf');

  await admin.goto('/dashboard/admin/chat');
  await admin
    .getByRole('list', { name: 'Conversations' })
    .getByRole('button')
    .filter({ hasText: account.email })
    .click();
  const staffDownload = admin
    .getByRole('list', { name: 'Messages' })
    .getByRole('button', { name: /^Download invoice\.pdf/ });
  expect(await downloadName(admin, staffDownload)).toBe('invoice.pdf');
  // The page that saved it ran nothing of it.
  expect(await admin.title()).not.toBe('ran');
});

test('the admin saves the KYC document sent as invoice.html as a PDF', async () => {
  await admin.goto(`/dashboard/admin/kyc?q=${encodeURIComponent(account.email)}`);
  await admin.getByRole('button', { name: /^Review KYC submission of/ }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByText(`${FILE_STEM}.pdf`)).toBeVisible();
  const name = await downloadName(
    admin,
    dialog.getByRole('button', { name: 'Download front document' }),
  );
  expect(name).toBe(`${FILE_STEM}.pdf`);
});

/**
 * The planted values as the screen shows them: each in a bidi isolate, in typed order with
 * the override shown as ⟨U+202E⟩, and no raw override anywhere on the page.
 */
async function expectIsolated(page: Page, values: string[]): Promise<void> {
  for (const value of values) {
    const isolate = page
      .locator('bdi')
      .filter({ hasText: shown(value) })
      .first();
    await expect(isolate).toBeAttached();
    expect(await isolate.evaluate((e) => e.textContent)).toBe(shown(value));
  }
  expect(await page.evaluate(() => document.body.innerText.includes('\u202E'))).toBe(false);
}

test('customer text reads in typed order with its hidden characters shown', async () => {
  await admin.goto(`/dashboard/admin/kyc?q=${encodeURIComponent(account.email)}`);
  await admin.getByRole('button', { name: /^Review KYC submission of/ }).click();
  await expectIsolated(admin, [KYC_NAME, ADDRESS]);
  await expect(admin.getByRole('dialog').getByText('⟨U+202E⟩').first()).toBeVisible();

  await admin.goto(
    `/dashboard/admin/transactions?view=pending&q=${encodeURIComponent(account.email)}`,
  );
  await expect(admin.getByRole('tabpanel').getByRole('row')).toHaveCount(3);
  await expectIsolated(admin, [NAME, MEMO, ACCOUNT_NAME]);

  await admin.goto('/dashboard/admin/chat');
  await admin
    .getByRole('list', { name: 'Conversations' })
    .getByRole('button')
    .filter({ hasText: account.email })
    .click();
  await expectIsolated(admin, [NAME, CHAT]);
});

type Screen = {
  name: string;
  /** Opens the screen from anywhere and waits until the customer's values are on it. */
  open: (page: Page) => Promise<void>;
};

const pendingTab = (page: Page) =>
  page.goto(`/dashboard/admin/transactions?view=pending&q=${encodeURIComponent(account.email)}`);
const pendingRow = (page: Page, text: string) =>
  page.getByRole('tabpanel').getByRole('row').filter({ hasText: text });
const memoShown = (page: Page) => page.getByText(shown(MEMO)).first();

const SCREENS: Screen[] = [
  {
    name: 'users',
    open: async (page) => {
      await page.goto('/dashboard/admin/users');
      await page.getByRole('searchbox', { name: 'Search users' }).fill(account.email);
      await expect(page.getByText(shown(NAME)).first()).toBeVisible();
    },
  },
  {
    name: 'user-wallets',
    open: async (page) => {
      await page.goto('/dashboard/admin/wallet-management');
      await page.getByRole('combobox', { name: 'Select User' }).fill(account.email);
      await page.getByRole('option').filter({ hasText: account.email }).click();
      await expect(page.getByRole('main').getByText(/^Managing/)).toBeVisible();
    },
  },
  {
    name: 'pending-withdrawals',
    open: async (page) => {
      await pendingTab(page);
      await expect(memoShown(page)).toBeVisible();
    },
  },
  {
    name: 'pending-approve-dialog',
    open: async (page) => {
      await pendingTab(page);
      await pendingRow(page, 'Withdrawal').getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('dialog').getByText(shown(MEMO))).toBeVisible();
    },
  },
  {
    name: 'pending-complete-dialog',
    open: async (page) => {
      await pendingTab(page);
      await pendingRow(page, 'Bank transfer').getByRole('button', { name: 'Complete' }).click();
      await expect(page.getByRole('dialog').getByText(shown(ACCOUNT_NAME))).toBeVisible();
    },
  },
  {
    name: 'pending-reject-dialog',
    open: async (page) => {
      await pendingTab(page);
      await pendingRow(page, 'Bank transfer').getByRole('button', { name: 'Reject' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'transactions',
    open: async (page) => {
      await page.goto('/dashboard/admin/transactions');
      await page.getByRole('searchbox', { name: 'Search' }).fill(account.email);
      await expect(page.getByText(shown(NAME)).first()).toBeVisible();
    },
  },
  {
    name: 'transaction-details',
    open: async (page) => {
      await page.goto('/dashboard/admin/transactions');
      await page.getByRole('searchbox', { name: 'Search' }).fill(account.email);
      const row = page.getByRole('row').filter({ hasText: 'Withdrawal' }).first();
      await row.getByRole('button', { name: /^View transaction/ }).click();
      await expect(page.getByRole('dialog').getByText(shown(MEMO))).toBeVisible();
    },
  },
  {
    name: 'kyc-list',
    open: async (page) => {
      await page.goto(`/dashboard/admin/kyc?q=${encodeURIComponent(account.email)}`);
      await expect(page.getByText(shown(KYC_NAME)).first()).toBeVisible();
    },
  },
  {
    name: 'kyc-review',
    open: async (page) => {
      await page.goto(`/dashboard/admin/kyc?q=${encodeURIComponent(account.email)}`);
      await page.getByRole('button', { name: /^Review KYC submission of/ }).click();
      await expect(page.getByRole('dialog').getByText(shown(ADDRESS))).toBeVisible();
    },
  },
  {
    name: 'support-chat',
    open: async (page) => {
      await page.goto('/dashboard/admin/chat');
      await page
        .getByRole('list', { name: 'Conversations' })
        .getByRole('button')
        .filter({ hasText: account.email })
        .click();
      await expect(page.getByText(shown(CHAT))).toBeVisible();
    },
  },
  {
    name: 'bank-payouts',
    open: async (page) => {
      await page.goto('/dashboard/admin/payouts');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    },
  },
  {
    name: 'audit-log',
    open: async (page) => {
      await page.goto('/dashboard/admin/audit');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    },
  },
];

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
] as const;

/** How far the page, or an open dialog, reaches past the window's right edge, in px. */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const page = document.documentElement.scrollWidth - window.innerWidth;
    const dialogs = [...document.querySelectorAll('[role="dialog"]')].map((d) =>
      Math.max(d.getBoundingClientRect().right - window.innerWidth, d.scrollWidth - d.clientWidth),
    );
    return Math.max(page, ...dialogs);
  });
}

test('no staff screen gets wider than its window because of customer text', async () => {
  // 13 screens, each measured four times: slow on a busy machine.
  test.setTimeout(600_000);
  const wider: string[] = [];
  let checked = 0;
  for (const screen of SCREENS) {
    await admin.setViewportSize(WIDTHS[0]);
    await screen.open(admin);
    for (const size of WIDTHS) {
      await admin.setViewportSize(size);
      for (const dark of [false, true]) {
        await showTheme(admin, dark);
        await settled(admin);
        const px = await overflow(admin);
        checked++;
        if (px > 0)
          wider.push(`${screen.name} at ${size.width} ${dark ? 'dark' : 'light'}: ${px} px`);
      }
    }
    await showTheme(admin, false);
    await snap(admin, `customer-text-${screen.name}`);
    await admin.keyboard.press('Escape');
  }
  test.info().annotations.push({
    type: 'checked',
    description: `${SCREENS.length} screens × ${WIDTHS.length} widths × 2 themes = ${checked}`,
  });
  console.log(`customer text: ${checked} screen views checked, ${wider.length} too wide`);
  expect(wider).toEqual([]);
});
