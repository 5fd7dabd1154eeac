import {
  AmountError,
  ASSETS,
  CUSTOMER_ASSET_IDS,
  formatAmount,
  toMinor,
  ZAssetId,
  ZEmail,
} from '@coffer/shared';
import { type CliCommand, CliError, optionsOf } from './cli-support';

export const creditDeposit: CliCommand = {
  usage: 'credit-deposit --email E --asset BTC|ETH|USDT-ERC20|USDT-TRC20 --amount A --tx-hash H',
  async run(s, args) {
    const { values } = optionsOf(
      args,
      {
        email: { type: 'string' },
        asset: { type: 'string' },
        amount: { type: 'string' },
        'tx-hash': { type: 'string' },
      },
      { positionals: false },
    );
    const email = ZEmail.safeParse(values.email ?? '');
    if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
    const asset = ZAssetId.safeParse((values.asset ?? '').trim().toUpperCase());
    if (!asset.success) {
      throw new CliError(
        `Unknown asset "${values.asset ?? ''}". Use one of ${CUSTOMER_ASSET_IDS.join(', ')}.`,
      );
    }
    const { symbol, decimals } = ASSETS[asset.data];
    let amount: bigint;
    try {
      amount = toMinor(asset.data, values.amount ?? '');
    } catch (err) {
      if (err instanceof AmountError) throw new CliError(err.message);
      throw err;
    }
    if (amount === 0n) throw new CliError('Amount must be greater than 0');
    const hash = (values['tx-hash'] ?? '').trim();
    if (hash === '') throw new CliError('The chain transaction hash is required (--tx-hash).');
    // A fresh process has no live prices yet; the last stored ones value the deposit.
    if (s.prices.current().source === 'fallback') await s.prices.loadCached();

    const result = await s.deposits.credit({
      email: email.data,
      assetId: asset.data,
      amount,
      transactionHash: hash,
    });
    const shown = `${formatAmount(amount, decimals)} ${symbol}`;
    switch (result.outcome) {
      case 'unknown-user':
        throw new CliError(`No account with the e-mail ${email.data}.`);
      case 'invalid-hash':
        throw new CliError(`${result.message} Nothing changed.`);
      case 'hash-belongs-elsewhere':
        throw new CliError(
          `Chain transaction ${result.transactionHash} was already credited to ${asset.data} as another deposit (${result.transactionId}). Nothing changed.`,
        );
      case 'chain-watched':
        throw new CliError(
          `Chain transaction ${result.transactionHash} is watched on its chain (deposit ${result.status}): the watcher credits it once it is confirmed. Nothing changed.`,
        );
      case 'already-credited':
        return `Chain transaction ${result.transactionHash} was already credited: ${shown} to ${email.data}. Nothing changed. Balance: ${result.balance} ${symbol}.`;
      case 'credited':
        return `Credited ${shown} to ${email.data} (chain transaction ${result.transactionHash}). New balance: ${result.balance} ${symbol}.`;
    }
  },
};
