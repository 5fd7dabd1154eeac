import { expect, test } from '@playwright/test';
import { creditDeposit, expectAccessible, uniqueTxHash } from './support/app';
import { query } from './support/db';
import { createCustomer } from './support/flows';

// A deposit a chain watcher has seen and is counting confirmations for. No chain
// node runs here, so the watcher's two rows are written as it writes them: a pending deposit
// in the ledger (no balance effect) and its chain_deposits row.
test('a confirming chain deposit shows in history as "Confirming n of N", pending and not in the balance', async ({
  page,
}) => {
  const account = await createCustomer(page, 'chain-deposit');
  creditDeposit(account.email, 'ETH', '0.5', uniqueTxHash());
  const [wallet] = await query<{ id: string; user_id: string }>(
    `SELECT w.id, w.user_id FROM user_wallets w JOIN users u ON u.id = w.user_id
      WHERE u.email = $1 AND w.asset_id = 'ETH'`,
    [account.email],
  );
  if (!wallet) throw new Error('no ETH wallet after the credit');
  const hash = `0x${uniqueTxHash()}`;
  const [row] = await query<{ id: string }>(
    `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network,
       crypto_amount, fee, usd_amount, currency, transaction_hash, status)
     VALUES ($1, $2, 'deposit', 'credit', 'ETH', 'ethereum', '2', '0', '6000.00', 'USD', $3, 'pending')
     RETURNING id`,
    [wallet.user_id, wallet.id, hash],
  );
  await query(
    `INSERT INTO chain_deposits (chain, tx_hash, output_index, address, user_id, asset_id,
       amount_minor, block_height, block_hash, status, transaction_id)
     VALUES ('ethereum', $1, -1, '0x52908400098527886e0f7030069857d2e4169ee7', $2, 'ETH',
       '2000000000000000000', 100, $3, 'confirming', $4)`,
    [hash, wallet.user_id, `0x${uniqueTxHash()}`, row?.id],
  );
  // The watcher has checked blocks up to 103: the deposit's block 100 has 4 confirmations.
  await query(
    `INSERT INTO chain_cursors (chain, height, block_hash) VALUES ('ethereum', 103, $1)
     ON CONFLICT (chain) DO UPDATE SET height = 103`,
    [`0x${uniqueTxHash()}`],
  );

  await page.goto('/dashboard/history');
  const deposit = page.getByRole('article').filter({ hasText: 'Confirming' });
  await expect(deposit).toHaveCount(1);
  await expect(deposit.getByText('Confirming 4 of 12', { exact: true })).toBeVisible();
  await expect(deposit.getByText(/it is credited once confirmed on the blockchain/)).toBeVisible();
  await expectAccessible(page);

  // The balance is the manual credit alone: a confirming deposit is not money yet.
  const [balance] = await query<{ balance: string }>(
    'SELECT balance_crypto::text AS balance FROM user_wallets WHERE id = $1',
    [wallet.id],
  );
  expect(balance?.balance).toBe('0.500000000000000000');
});
