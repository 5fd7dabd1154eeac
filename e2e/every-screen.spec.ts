import { expect, type Page, test } from '@playwright/test';
import { creditDeposit, freshCode, uniqueTxHash } from './support/app';
import { createCustomer, proposeBalanceThroughApi, signInNewAdminAccount } from './support/flows';
import { heading, type Screen, walkScreens } from './support/screen-walk';

/**
 * Every screen of both sides, at 1440 and 375 px, light and dark: no page wider than its
 * window, no serious or critical axe finding, no text under the phone's floating menu. The
 * pictures land in each test's output folder (`screens/`).
 */
test.describe.configure({ timeout: 600_000 });

/** A POST to the app's API from the page's session, as its own screens send it. */
async function post(page: Page, path: string, data: object, headers: Record<string, string> = {}) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post(path, { headers: { origin, ...headers }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return res.json();
}

/**
 * A customer with money on three assets (a fortune in Bitcoin, so that totals run to nine
 * digits), a withdrawal waiting for staff, and a support conversation.
 */
async function customerWithMoney(page: Page) {
  const account = await createCustomer(page, 'walk');
  creditDeposit(account.email, 'BTC', '1304.1907', uniqueTxHash());
  creditDeposit(account.email, 'ETH', '2.75', uniqueTxHash());
  creditDeposit(account.email, 'USDT-ERC20', '1500', uniqueTxHash());
  await post(
    page,
    '/api/withdrawals',
    {
      assetId: 'ETH',
      amount: '0.25',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      stepUp: { code: await freshCode(account.secret, account.lastCode) },
    },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  const { room } = await post(page, '/api/chat/rooms', {});
  await post(page, `/api/chat/rooms/${room.id}/messages`, {
    text: 'Hello, my withdrawal to my hardware wallet is still pending. When will it be sent?',
  });
  return account;
}

const PUBLIC: Screen[] = [
  { name: 'landing', path: '/', ready: heading('Next-generation crypto management') },
  { name: 'about', path: '/about', ready: heading(/careful custodian/) },
  { name: 'welcome', path: '/welcome', ready: heading(/./) },
  { name: 'sign-in', path: '/auth', ready: heading(/./) },
  { name: 'sign-up', path: '/auth?mode=signup', ready: heading(/./) },
  { name: 'reset-password', path: '/reset-password', ready: heading('Reset Password') },
  { name: 'verify-email', path: '/verify-email?token=x', ready: heading('E-mail not confirmed') },
  { name: 'freeze', path: '/freeze?token=x', ready: heading("This wasn't me") },
  { name: 'set-password', path: '/set-password?token=x', ready: heading(/./) },
  { name: 'not-found', path: '/no-such-page', ready: heading(/./) },
];

const CUSTOMER: Screen[] = [
  { name: 'dashboard', path: '/dashboard', ready: heading(/./) },
  { name: 'deposit', path: '/dashboard/deposit', ready: heading(/./) },
  { name: 'withdraw', path: '/dashboard/withdraw', ready: heading(/./) },
  { name: 'withdraw-eth', path: '/withdraw/ETH', ready: heading(/./) },
  { name: 'asset-selection', path: '/asset-selection', ready: heading(/./) },
  { name: 'asset-btc', path: '/dashboard/asset/BTC', ready: heading(/Bitcoin/) },
  { name: 'history', path: '/dashboard/history', ready: heading('Transaction History') },
  { name: 'chat', path: '/dashboard/chat', ready: heading(/./) },
  { name: 'bank-transfer', path: '/bank-transfer', ready: heading('Bank Transfer') },
  { name: 'bank-details', path: '/bank-details', ready: heading('Bank Details') },
  { name: 'settings', path: '/dashboard/settings', ready: heading('Settings') },
  { name: 'secret-combination', path: '/secret-combination', ready: heading(/./) },
  { name: 'kyc', path: '/kyc', ready: heading('Identity Verification (KYC)') },
];

/** The back office's screens, with one customer's support conversation opened. */
const adminScreens = (customerEmail: string): Screen[] => [
  { name: 'admin-dashboard', path: '/dashboard/admin', ready: heading('Admin Dashboard') },
  { name: 'admin-users', path: '/dashboard/admin/users', ready: heading('Users Management') },
  {
    name: 'admin-transactions',
    path: '/dashboard/admin/transactions',
    ready: heading('Transaction Management'),
  },
  { name: 'admin-payouts', path: '/dashboard/admin/payouts', ready: heading('Payouts') },
  {
    name: 'admin-wallets',
    path: '/dashboard/admin/wallet-management',
    ready: heading('Wallet Management'),
  },
  {
    name: 'admin-addresses',
    path: '/dashboard/admin/addresses',
    ready: heading('Deposit Addresses'),
  },
  { name: 'admin-chains', path: '/dashboard/admin/chains', ready: heading('Chains') },
  { name: 'admin-kyc', path: '/dashboard/admin/kyc', ready: heading('KYC Submissions') },
  {
    name: 'admin-chat',
    path: '/dashboard/admin/chat',
    ready: async (page) => {
      await heading('Support Conversations')(page);
      // The conversation open, as staff read it.
      await page
        .getByRole('button', { name: new RegExp(customerEmail) })
        .first()
        .click();
      await expect(page.getByText(/When will it be sent\?/)).toBeVisible();
    },
  },
  { name: 'admin-settings', path: '/dashboard/admin/settings', ready: heading(/Settings/) },
  { name: 'admin-audit', path: '/dashboard/admin/audit', ready: heading('Audit Log') },
  { name: 'admin-staff', path: '/dashboard/admin/staff', ready: heading('Staff') },
  {
    name: 'admin-phrases',
    path: '/admin/recovery-phrases',
    ready: heading('Recovery Phrases'),
  },
];

test('every public screen fits, reads and passes axe', async ({ page }) => {
  await walkScreens(page, PUBLIC);
});

test('every customer screen fits, reads and passes axe', async ({ page }) => {
  await customerWithMoney(page);
  await walkScreens(page, CUSTOMER);
});

test('every admin screen fits, reads and passes axe', async ({ page, browser }) => {
  const customerContext = await browser.newContext();
  const customer = await customerWithMoney(await customerContext.newPage());
  await customerContext.close();
  const admin = await signInNewAdminAccount(page, 'walk-admin');
  // A change waiting for a second staff member: the staff home shows it before and after.
  await proposeBalanceThroughApi(page, admin, customer.email, 'BTC', '1304.2007');
  await walkScreens(page, adminScreens(customer.email));
});
