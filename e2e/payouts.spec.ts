import { STAFF_MSG } from '@coffer/shared';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { creditDeposit, expectAccessible, ownAddress, uniqueTxHash } from './support/app';
import {
  type Account,
  approveThroughApi,
  confirmStepUp,
  createCustomer,
  sidebar,
  signInNewAdminAccount,
  toasts,
} from './support/flows';
import { snap } from './support/shots';

// A customer's Bitcoin withdrawal on its way out: approved by one admin, seen waiting on
// Payouts, its completion proposed by another with the hash of a payment made outside Coffer
// and approved by the first (two people for every money movement). The test
// server has no chain node or key configured, so Payouts says so and builds no batch, and a
// typed hash is taken unchecked (Unverified). Serial: each step builds on the one before.
test.describe.configure({ mode: 'serial' });

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const PAYOUT_HASH = 'c'.repeat(8) + '0d1e2f3a'.repeat(7);

let contexts: BrowserContext[] = [];
let customer: Page;
let approver: Page;
let payer: Page;
let account: Account;
let approverAccount: Account;
let payerAccount: Account;

async function newPage(browser: import('@playwright/test').Browser): Promise<Page> {
  const context = await browser.newContext();
  await ownAddress(context);
  contexts.push(context);
  return context.newPage();
}

async function openPending(page: Page): Promise<void> {
  await page.goto('/dashboard/admin/transactions');
  await page.getByRole('tab', { name: 'Pending withdrawals' }).click();
  // The queue lists the oldest first, a page at a time: this customer's, searched for.
  await page.getByRole('tabpanel').getByRole('searchbox', { name: 'Search' }).fill(account.email);
}

function pendingRow(page: Page) {
  return page
    .getByRole('main')
    .getByRole('row')
    .filter({ hasText: account.email })
    .filter({ hasText: '0.10000000 BTC' });
}

function waitingTable(page: Page) {
  return page.getByRole('table', { name: /^Approved Bitcoin withdrawals waiting/ });
}

test.beforeAll(async ({ browser }) => {
  // Several accounts, staff among them made with the CLI, before the first step.
  test.setTimeout(180_000);
  customer = await newPage(browser);
  account = await createCustomer(customer, 'payouts');
  creditDeposit(account.email, 'BTC', '0.5', uniqueTxHash());
  approver = await newPage(browser);
  approverAccount = await signInNewAdminAccount(approver, 'payouts-approver');
  payer = await newPage(browser);
  payerAccount = await signInNewAdminAccount(payer, 'payouts-payer');
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
  contexts = [];
});

test('the customer requests a Bitcoin withdrawal', async () => {
  await customer.goto('/dashboard/withdraw');
  await customer.getByLabel('Cryptocurrency').selectOption({ label: 'BTC - Bitcoin' });
  await customer.getByLabel('Amount', { exact: true }).fill('0.1');
  await customer.getByLabel('Destination address').fill(BTC_ADDRESS);
  await customer.getByRole('button', { name: 'Submit Withdrawal Request' }).click();
  await customer.getByRole('button', { name: 'Confirm and continue' }).click();
  await confirmStepUp(customer, account, {
    title: 'Confirm your withdrawal',
    says: `0.1 BTC to ${BTC_ADDRESS}`,
  });
  await expect(
    toasts(customer).getByText('Withdrawal request submitted successfully'),
  ).toBeVisible();
});

test('a second admin approves it in Pending withdrawals', async () => {
  await openPending(approver);
  const row = pendingRow(approver);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: 'Complete' })).toHaveCount(0);
  await row.getByRole('button', { name: 'Approve' }).click();
  await confirmStepUp(approver, approverAccount, {
    title: 'Approve withdrawal',
    says: `0.10000000 BTC for ${account.email}`,
  });
  await expect(toasts(approver).getByText('Withdrawal approved')).toBeVisible();
  await expect(row.getByText('Approved', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Complete' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Reject' })).toBeVisible();
  await expectAccessible(approver);
  await snap(approver, 'payouts-pending-approved');
});

test('Payouts says Bitcoin is not configured and lists the approved payout as waiting', async () => {
  await sidebar(approver).getByRole('link', { name: 'Payouts' }).click();
  await expect(approver).toHaveURL(/\/dashboard\/admin\/payouts$/);
  await expect(approver.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
  await expect(approver.getByRole('tab', { name: 'Bitcoin' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(approver.getByRole('tabpanel')).toContainText(
    'This chain’s node and key are not configured, so Coffer does not build its payouts: they are completed by hash from Pending withdrawals.',
  );
  // Nothing to build with: no node, no key.
  await expect(approver.getByRole('button', { name: 'Build batch' })).toHaveCount(0);

  const waiting = waitingTable(approver).getByRole('row').filter({ hasText: account.email });
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText('0.10000000 BTC');
  await expect(waiting).toContainText('Approved');
  await expect(waiting.getByTitle(BTC_ADDRESS)).toHaveText(BTC_ADDRESS);
  await expect(approver.getByText('No Bitcoin batches yet.')).toBeVisible();
  await expectAccessible(approver);
  await snap(approver, 'payouts-bitcoin');

  // On a phone the tables stack as cards: nothing sticks out sideways.
  const viewport = approver.viewportSize();
  await approver.setViewportSize({ width: 375, height: 812 });
  await expect(waiting).toContainText('0.10000000 BTC');
  expect(
    await approver.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBe(0);
  if (viewport) await approver.setViewportSize(viewport);

  // The Bitcoin payout is not Ethereum's (other tests may leave Ethereum payouts waiting);
  // the page's address keeps the chain chosen.
  await approver.getByRole('tab', { name: 'Ethereum' }).click();
  await expect(approver).toHaveURL(/\/dashboard\/admin\/payouts\?chain=ethereum$/);
  await expect(approver.getByRole('tabpanel')).toContainText('not configured');
  await expect(approver.getByRole('tabpanel')).not.toContainText(account.email);

  // The short address leads to the same screen.
  await approver.goto('/admin/payouts');
  await expect(approver).toHaveURL(/\/dashboard\/admin\/payouts$/);
  await expect(waitingTable(approver)).toContainText(account.email);
});

test('another admin proposes its completion by hash; once approved it reads Unverified', async () => {
  await openPending(payer);
  const row = pendingRow(payer);
  await row.getByRole('button', { name: 'Complete' }).click();
  const dialog = payer.getByRole('dialog', { name: 'Complete withdrawal' });
  await dialog.getByLabel('Chain transaction hash').fill(PAYOUT_HASH);
  await dialog.getByRole('button', { name: 'Mark as completed' }).click();
  await confirmStepUp(payer, payerAccount, { title: 'Confirm the withdrawal' });
  await expect(toasts(payer).getByText(STAFF_MSG.proposed)).toBeVisible();
  await expect(row).toHaveCount(1);
  await approveThroughApi(approver, approverAccount, payerAccount, 'payout.complete');
  await openPending(payer);
  await expect(row).toHaveCount(0);

  await payer.getByRole('tab', { name: 'All transactions' }).click();
  await payer.getByLabel('Search').fill(account.email);
  const listed = payer.getByRole('main').getByRole('row').filter({ hasText: 'Withdrawal' });
  // The search applies once typing pauses: then this customer's withdrawal is the one row.
  await expect(listed).toHaveCount(1);
  await listed.getByRole('button', { name: /^View transaction/ }).click();
  const details = payer.getByRole('dialog', { name: 'Transaction Details' });
  await expect(details.getByText('Unverified', { exact: true })).toBeVisible();
  await expect(details).toContainText(PAYOUT_HASH);
  await details.getByRole('button', { name: 'Close' }).click();

  // Paid: no longer waiting on Payouts.
  await payer.goto('/dashboard/admin/payouts');
  await expect(payer.getByText('No approved Bitcoin withdrawals are waiting.')).toBeVisible();
});

// The ways out of stuck states (issue 32) need a chain node to arise, which this server has
// none of: the Ethereum overview is answered here with a payout reversed on chain, a built
// batch nobody signed and a broadcast one the node refused, as the server presents them.
// The actions still go to the real server (a batch it does not know: 404).
const REVERSED_HASH = `0x${'ab'.repeat(32)}`;
const REFUSED_HASH = `0x${'cd'.repeat(32)}`;
const BUILT_BATCH = '7c1d0e55-2f7e-4c3b-9a11-5d2f7e4c3b9a';

function ethPayout(over: Record<string, unknown>) {
  return {
    id: crypto.randomUUID(),
    customerEmail: 'erin@example.com',
    assetId: 'ETH',
    amount: '0.07',
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    state: 'in-batch',
    approvedAt: '2026-01-05T10:00:00.000Z',
    approvedBy: null,
    txHash: null,
    confirmations: 0,
    required: 12,
    networkFee: null,
    networkFeeAsset: 'ETH',
    waitingReason: null,
    ...over,
  };
}

function ethBatch(over: Record<string, unknown>) {
  return {
    id: crypto.randomUUID(),
    chain: 'ethereum',
    state: 'built',
    createdAt: '2026-01-05T10:05:00.000Z',
    createdBy: null,
    txHashes: [],
    fee: '0.00042',
    feeAsset: 'ETH',
    feeRate: null,
    payouts: [],
    fileName: 'ethereum-payouts-7c1d0e55.json',
    sendErrors: [],
    ...over,
  };
}

test('Payouts shows a reversed payout first, a refused broadcast beside its batch, fees with their unit, and abandons through the step-up', async () => {
  await approver.route('**/api/admin/payouts?chain=ethereum', (route) =>
    route.fulfill({
      json: {
        chain: 'ethereum',
        configured: true,
        payoutAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
        balances: [
          { assetId: 'ETH', amount: '12.5' },
          { assetId: 'USDT-ERC20', amount: '25000' },
        ],
        reversed: [
          ethPayout({
            customerEmail: 'frank@example.com',
            amount: '0.25',
            state: 'reversed-on-chain',
            txHash: REVERSED_HASH,
          }),
        ],
        waiting: [],
        nonceGap: null,
        batches: [
          ethBatch({
            id: BUILT_BATCH,
            payouts: [ethPayout({ assetId: 'USDT-ERC20', amount: '120' })],
          }),
          ethBatch({
            state: 'broadcast',
            txHashes: [REFUSED_HASH],
            fileName: 'ethereum-payouts-1f2e3d4c.json',
            payouts: [
              ethPayout({
                assetId: 'USDT-ERC20',
                amount: '45.5',
                state: 'broadcast',
                txHash: REFUSED_HASH,
                networkFee: '0.00042',
              }),
            ],
            sendErrors: [
              {
                txHash: REFUSED_HASH,
                nonce: 7,
                message:
                  'Ethereum node: eth_sendRawTransaction failed: nonce too low: next nonce 8, tx nonce 7',
                at: '2026-01-05T10:06:00.000Z',
              },
            ],
          }),
        ],
      },
    }),
  );
  await approver.goto('/dashboard/admin/payouts?chain=ethereum');
  const panel = approver.getByRole('tabpanel');
  // Reversed on chain comes first, with its two ways out.
  const alarm = panel.getByRole('alert').first();
  await expect(alarm).toContainText('Reversed on chain: 1');
  const reversed = approver.getByRole('table', { name: 'Ethereum payouts reversed on chain' });
  const row = reversed.getByRole('row').filter({ hasText: 'frank@example.com' });
  await expect(row).toContainText('0.25');
  await expect(row.getByRole('button', { name: 'Re-send' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Return to approved' })).toBeVisible();
  // The node's refusal beside its batch; a USDT payout's gas in ETH.
  await expect(panel).toContainText('The node refused to broadcast');
  await expect(panel).toContainText(
    'Nonce 7: Ethereum node: eth_sendRawTransaction failed: nonce too low',
  );
  await expect(panel).toContainText('0.000420 ETH');
  // Only the built batch nobody signed can be abandoned.
  await expect(panel.getByRole('button', { name: 'Abandon batch' })).toHaveCount(1);
  await expectAccessible(approver);
  await snap(approver, 'payouts-exits');

  // Return to approved asks for a reason first.
  await row.getByRole('button', { name: 'Return to approved' }).click();
  const propose = approver.getByRole('dialog', { name: 'Return to approved' });
  await propose.getByRole('button', { name: 'Propose' }).click();
  await expect(propose).toContainText('Say why this payout is to be paid again.');
  await propose.getByRole('button', { name: 'Cancel' }).click();

  // Abandoning goes through the step-up to the server, which knows no such batch.
  await panel.getByRole('button', { name: 'Abandon batch' }).click();
  await confirmStepUp(approver, approverAccount, {
    title: 'Abandon the batch',
    says: 'Batch 7c1d0e55 is dropped: its 1 payout is approved again',
  });
  await expect(
    panel.getByRole('alert').filter({ hasText: 'The batch was not abandoned' }),
  ).toContainText('Payout batch not found.');
  await approver.unroute('**/api/admin/payouts?chain=ethereum');
});
