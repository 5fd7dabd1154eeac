import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible, uniqueTxHash } from './support/app';
import { query } from './support/db';
import { createCustomer, sidebar, signInNewAdmin } from './support/flows';
import { snap } from './support/shots';

/** Nothing sticks out sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBe(0);
}

function chainCard(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

/** A figure of a chain's card: the value next to its label. */
function figure(card: Locator, term: string): Locator {
  return card
    .locator('dt')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

// The server under browser test watches no chain (no node runs here), so every chain is
// "not configured" and its alerts come from rows written as the watcher writes them. The
// figures of a configured chain are shown from an answer shaped as the server gives it.
/** A failing watcher's figures, its times counted from when the screen asks for them. */
const ethereumFailing = () => ({
  chain: 'ethereum',
  configured: true,
  state: 'failing',
  reason: 'The last poll failed 2 minutes ago: connect ECONNREFUSED 10.0.0.5:8545',
  nodeTip: 21_000_345,
  height: 21_000_340,
  lag: 5,
  lastBlockAt: new Date(Date.now() - 3 * 60_000).toISOString(),
  lastPollAt: new Date(Date.now() - 2 * 60_000).toISOString(),
  lastError: 'connect ECONNREFUSED 10.0.0.5:8545',
  lastErrorAt: new Date(Date.now() - 2 * 60_000).toISOString(),
  errorsLastHour: 7,
  watchedAddresses: 1_204,
  confirming: 3,
  reversedOnChain: 0,
  requiredConfirmations: 12,
  configuration: [
    { name: 'ETH_RPC_URL', value: 'https://eth.node.example (credentials, path hidden)' },
    { name: 'ETH_XPUB', value: 'xpub6C1v…q9Hk2c' },
    { name: 'USDT_ERC20_CONTRACT', value: '0xdac17f958d2ee523a2206206994597c13d831ec7' },
  ],
});

test('an admin sees each chain watcher, the chains not configured, and the deposits that left a chain', async ({
  page,
  browser,
}) => {
  // A customer whose credited deposit left the chain in a reorganisation.
  const customerContext = await browser.newContext();
  const customer = await createCustomer(await customerContext.newPage(), 'chains-alert');
  await customerContext.close();
  const hash = `0x${uniqueTxHash()}`;
  const [deposit] = await query<{ id: string }>(
    `INSERT INTO chain_deposits (chain, tx_hash, output_index, address, user_id, asset_id,
       amount_minor, block_height, block_hash, confirmations, status, updated_at)
     SELECT 'ethereum', $1, 0, '0x52908400098527886e0f7030069857d2e4169ee7', id, 'USDT-ERC20',
       '1250000', 100, $2, 12, 'reversed-on-chain', now() - interval '2 hours'
       FROM users WHERE email = $3
     RETURNING id`,
    [hash, `0x${uniqueTxHash()}`, customer.email],
  );
  if (!deposit) throw new Error('the reversed deposit was not written');
  try {
    await signInNewAdmin(page, 'chains-admin');

    // The dashboard's health names it and leads to the Chains screen.
    const problem = page.getByRole('link', {
      name: 'Chain deposits: 1 credited deposit left the blockchain; not debited, staff must resolve it',
    });
    await expect(problem).toBeVisible();
    await expect(page.getByText('Attention needed')).toBeVisible();
    await problem.click();
    await expect(page).toHaveURL(/\/dashboard\/admin\/chains$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Chains' })).toBeVisible();

    // No chain is configured here: each says deposits are credited by staff.
    for (const name of ['Bitcoin', 'Ethereum', 'TRON']) {
      const card = chainCard(page, name);
      await expect(card.getByText('Not configured', { exact: true })).toBeVisible();
      await expect(
        card.getByText('Not configured: deposits are credited by staff.', { exact: true }),
      ).toBeVisible();
    }
    const bitcoin = chainCard(page, 'Bitcoin');
    await expect(figure(bitcoin, 'BTC_RPC_URL')).toHaveText('not set');
    await expect(figure(bitcoin, 'BTC_NETWORK')).toHaveText('mainnet');
    await expect(figure(chainCard(page, 'TRON'), 'TRON_API_KEY')).toHaveText('not set');

    // The alert: who, what (formatted from minor units), which transaction, since when.
    const alerts = page.getByRole('list', { name: 'Credited deposits that left the chain' });
    const alert = alerts.getByRole('listitem').filter({ hasText: hash });
    await expect(alert).toHaveCount(1);
    await expect(alert.getByText(customer.email)).toBeVisible();
    await expect(alert.getByText('1.25 USDT', { exact: true })).toBeVisible();
    await expect(alert.getByText(/^Ethereum · left the chain about 2 hours ago$/)).toBeVisible();
    await expect(page.getByText(/Coffer did not debit them/)).toBeVisible();
    await expectAccessible(page);

    // Also in the admin menu.
    await page.goto('/dashboard/admin');
    await sidebar(page).getByRole('link', { name: 'Chains' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Chains' })).toBeVisible();

    // A configured chain's figures, as the server sends them for a watcher whose node fails.
    let failing = ethereumFailing();
    await page.route('**/api/admin/chains', async (route) => {
      failing = ethereumFailing();
      const response = await route.fetch();
      const body = await response.json();
      body.chains = body.chains.map((c: { chain: string }) =>
        c.chain === 'ethereum' ? failing : c,
      );
      await route.fulfill({ response, json: body });
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const ethereum = chainCard(page, 'Ethereum');
    await expect(ethereum.getByText('Failing', { exact: true })).toBeVisible();
    await expect(ethereum.getByText(failing.reason)).toBeVisible();
    await expect(figure(ethereum, 'Node tip')).toHaveText('21,000,345');
    await expect(figure(ethereum, 'Watcher height')).toHaveText('21,000,340');
    await expect(figure(ethereum, 'Lag')).toHaveText('5 blocks');
    await expect(figure(ethereum, 'Last block time')).toHaveText('3 minutes ago');
    await expect(figure(ethereum, 'Errors, last hour')).toHaveText('7');
    await expect(figure(ethereum, 'Watched addresses')).toHaveText('1,204');
    await expect(figure(ethereum, 'Awaiting confirmations')).toHaveText('3');
    await expect(figure(ethereum, 'Required confirmations')).toHaveText('12');
    await expect(figure(ethereum, 'ETH_RPC_URL')).toHaveText(
      'https://eth.node.example (credentials, path hidden)',
    );
    await expect(
      ethereum.getByText('connect ECONNREFUSED 10.0.0.5:8545', { exact: true }),
    ).toBeVisible();
    // The exact time is in the title of the relative one.
    await expect(figure(ethereum, 'Last block time').locator('time')).toHaveAttribute(
      'datetime',
      failing.lastBlockAt,
    );
    await expectAccessible(page);
    await snap(page, 'admin-chains');

    // On a phone: one column, nothing cut off sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(figure(ethereum, 'Node tip')).toBeVisible();
    await expect(alert.getByText('1.25 USDT', { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page);
  } finally {
    // The alert would leave the dashboard's health degraded for the tests after this one.
    await query('DELETE FROM chain_deposits WHERE id = $1', [deposit.id]);
  }
});
