import { EXPLORER_TX_URL_DEFAULTS } from '@coffer/shared';
import { type BrowserContext, expect, type Page, type Route, test } from '@playwright/test';
import { creditDeposit, expectAccessible, ownAddress, uniqueTxHash } from './support/app';
import { query } from './support/db';
import {
  approveSettingChange,
  createCustomer,
  type StepUpAdmin,
  saveSettingsWithStepUp,
  sidebar,
  signInNewAdminAccount,
  toasts,
} from './support/flows';

// Issue 14, what the customer sees: a chain hash in the history opens the operator's block
// explorer, and the withdrawal form checks a Bitcoin address for the server's BTC_NETWORK.
// Serial: the settings test changes what the history test saw.
test.describe.configure({ mode: 'serial' });

let customerContext: BrowserContext;
let adminContext: BrowserContext;
let approverContext: BrowserContext;
let customer: Page;
let admin: Page;
/** Explorer links are risk settings: a second admin approves each change. */
let approver: Page;
let adminAccount: StepUpAdmin;
let approverAccount: StepUpAdmin;
let ethHash: string;
let btcHash: string;

test.beforeAll(async ({ browser }) => {
  customerContext = await browser.newContext();
  await ownAddress(customerContext);
  customer = await customerContext.newPage();
  const account = await createCustomer(customer, 'explorer');
  btcHash = uniqueTxHash();
  ethHash = uniqueTxHash();
  creditDeposit(account.email, 'BTC', '0.5', btcHash);
  creditDeposit(account.email, 'ETH', '1', ethHash);

  adminContext = await browser.newContext();
  await ownAddress(adminContext);
  admin = await adminContext.newPage();
  adminAccount = await signInNewAdminAccount(admin, 'explorer-admin');
  approverContext = await browser.newContext();
  await ownAddress(approverContext);
  approver = await approverContext.newPage();
  approverAccount = await signInNewAdminAccount(approver, 'explorer-approver');
});

test.afterAll(async () => {
  // Other tests see the default links again, announced as every settings writer must.
  await query(
    `WITH changed AS (
       UPDATE app_settings s SET setting_value = d.value
         FROM unnest($1::text[], $2::text[]) AS d(key, value)
        WHERE s.setting_key = d.key AND s.setting_value <> d.value RETURNING 1
     ) SELECT pg_notify('coffer_settings', '') FROM changed LIMIT 1`,
    [Object.keys(EXPLORER_TX_URL_DEFAULTS), Object.values(EXPLORER_TX_URL_DEFAULTS)],
  );
  await customerContext.close();
  await adminContext.close();
  await approverContext.close();
});

/** A history row of the asset, by the symbol line under its title. */
function depositRow(symbol: 'BTC' | 'ETH') {
  return customer
    .getByRole('article')
    .filter({ hasText: 'Deposit' })
    .filter({ has: customer.getByText(new RegExp(`^${symbol} · `)) });
}

async function openHistory(): Promise<void> {
  await customer.goto('/dashboard/history');
  await expect(customer.getByText('2 Transaction(s)', { exact: true })).toBeVisible();
}

test('a completed chain deposit links its hash to the chain explorer, in a new tab', async () => {
  await openHistory();
  const eth = depositRow('ETH').getByRole('link', { name: `0x${ethHash}` });
  await expect(eth).toHaveAttribute('href', `https://etherscan.io/tx/0x${ethHash}`);
  await expect(eth).toHaveAttribute('target', '_blank');
  await expect(eth).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(depositRow('BTC').getByRole('link', { name: btcHash })).toHaveAttribute(
    'href',
    `https://mempool.space/tx/${btcHash}`,
  );
  await expectAccessible(customer);
});

test('staff change the Ethereum explorer in App Settings: a bad one is explained, a good one is followed, empty shows no link', async () => {
  await sidebar(admin).getByRole('link', { name: 'App Settings' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'App Settings' })).toBeVisible();
  const field = admin.getByLabel('Ethereum explorer link');
  const save = admin.getByRole('button', { name: 'Save Settings' });
  await expect(field).toHaveValue('https://etherscan.io/tx/{hash}');

  await field.fill('https://etherscan.io/tx/');
  await expect(
    admin.getByText(
      'Ethereum explorer link must be an https:// address containing {hash} once, e.g. https://mempool.space/tx/{hash}, or empty for no link.',
    ),
  ).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(save).toBeDisabled();

  await field.fill('http://localhost:5100/tx/{hash}');
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  await saveSettingsWithStepUp(admin, adminAccount);
  await expect(toasts(admin).getByText('Awaiting approval')).toBeVisible();
  await approveSettingChange(approver, approverAccount, 'Ethereum explorer link');
  await openHistory();
  await expect(depositRow('ETH').getByRole('link', { name: `0x${ethHash}` })).toHaveAttribute(
    'href',
    `http://localhost:5100/tx/0x${ethHash}`,
  );

  await admin.reload();
  await expect(field).toHaveValue('http://localhost:5100/tx/{hash}');
  await field.fill('');
  await saveSettingsWithStepUp(admin, adminAccount);
  await expect(admin.getByText('Awaiting another admin\u2019s approval: (empty)')).toBeVisible();
  await approveSettingChange(approver, approverAccount, 'Ethereum explorer link');
  await openHistory();
  // The hash is still there, as text.
  await expect(depositRow('ETH').getByText(`0x${ethHash}`, { exact: true })).toBeVisible();
  await expect(depositRow('ETH').getByRole('link')).toHaveCount(0);
  await expect(depositRow('BTC').getByRole('link', { name: btcHash })).toBeVisible();
});

// No Bitcoin node runs beside the browser tests and their server is on mainnet (other specs
// withdraw to bc1 addresses), so the regtest server is stood in for where the web app learns
// the network: its money status answer. The API tests prove the server answers BTC_NETWORK
// there (money-status.test.ts).
const REGTEST_ADDRESS = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
const MAINNET_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

async function asRegtest(route: Route): Promise<void> {
  const response = await route.fetch();
  await route.fulfill({
    response,
    json: { ...(await response.json()), bitcoinNetwork: 'regtest' },
  });
}

async function openWithdrawBtc(): Promise<void> {
  const statusLoaded = customer.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/money/status',
  );
  await customer.goto('/dashboard/withdraw');
  await expect(customer.getByRole('heading', { level: 1, name: 'Withdraw Funds' })).toBeVisible();
  await statusLoaded;
  await customer.getByLabel('Cryptocurrency').selectOption({ label: 'BTC - Bitcoin' });
  await customer.getByLabel('Amount', { exact: true }).fill('0.01');
}

const addressMessage = (text: string) =>
  customer.getByRole('main').getByRole('alert').filter({ hasText: text });

test('the withdraw form checks a Bitcoin address for the network the server runs on', async () => {
  const address = customer.getByLabel('Destination address');
  const submit = customer.getByRole('button', { name: 'Submit Withdrawal Request' });

  await customer.route('**/api/money/status', asRegtest);
  try {
    await openWithdrawBtc();
    await address.fill(REGTEST_ADDRESS);
    await expect(customer.getByRole('main').getByRole('alert')).toHaveCount(0);
    await expect(submit).toBeEnabled();

    await address.fill(MAINNET_ADDRESS);
    await expect(
      addressMessage(
        'This is not a Bitcoin regtest address. This service runs on Bitcoin regtest.',
      ),
    ).toBeVisible();
    await expect(submit).toBeDisabled();
  } finally {
    await customer.unroute('**/api/money/status', asRegtest);
  }

  // The same form on this (mainnet) server: the other way round.
  await openWithdrawBtc();
  await address.fill(MAINNET_ADDRESS);
  await expect(submit).toBeEnabled();
  await address.fill(REGTEST_ADDRESS);
  await expect(
    addressMessage(
      'This is a Bitcoin test network address. Enter a Bitcoin mainnet address instead.',
    ),
  ).toBeVisible();
  await expect(submit).toBeDisabled();
});
