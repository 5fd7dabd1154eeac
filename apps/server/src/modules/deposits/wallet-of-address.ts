import type { TAssetId } from '@coffer/shared';
import type { DepositAddressRow } from './deposits.repository';

/** Which customer wallet an address pays into, by the symbol and network staff entered. */
const WALLET_OF_ADDRESS: Readonly<Record<string, TAssetId>> = {
  'BTC/bitcoin': 'BTC',
  'ETH/ethereum': 'ETH',
  'USDT/erc20': 'USDT-ERC20',
  'USDT/trc20': 'USDT-TRC20',
};

export function walletOfAddress(symbol: string, network: string): TAssetId | null {
  return (
    WALLET_OF_ADDRESS[`${symbol.trim().toUpperCase()}/${network.trim().toLowerCase()}`] ?? null
  );
}

/**
 * The customer wallets these addresses pay into. A derived Ethereum address takes
 * USDT-ERC20 too: the deposit page lists it for both.
 */
export function walletsServed(
  rows: readonly Pick<DepositAddressRow, 'asset_symbol' | 'network' | 'chain'>[],
): Set<TAssetId> {
  const served = new Set<TAssetId>();
  for (const r of rows) {
    const assetId = walletOfAddress(r.asset_symbol, r.network);
    if (assetId !== null) served.add(assetId);
    if (r.chain === 'ethereum') served.add('USDT-ERC20');
  }
  return served;
}
