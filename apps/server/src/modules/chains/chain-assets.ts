import { ASSETS, type TAssetId } from '@coffer/shared';
import type { ChainName } from './chain-adapter';

/** The app setting holding each chain's confirmations. */
export const CONFIRMATIONS_SETTING: Record<ChainName, string> = {
  bitcoin: 'confirmations_btc',
  ethereum: 'confirmations_eth',
  tron: 'confirmations_tron',
};

/** Which chain carries an asset, by the catalogue's network. */
export function chainOfAsset(assetId: string): ChainName | null {
  const network = (ASSETS as Record<string, { network: string } | undefined>)[assetId]?.network;
  if (network === 'bitcoin') return 'bitcoin';
  if (network === 'ethereum' || network === 'erc20') return 'ethereum';
  if (network === 'trc20') return 'tron';
  return null;
}

/** How staff entered an asset's addresses (deposits' WALLET_OF_ADDRESS in deposit-addresses.ts, reversed). */
const SYMBOL_NETWORK: Partial<Record<TAssetId, string>> = {
  BTC: 'BTC/bitcoin',
  ETH: 'ETH/ethereum',
  'USDT-ERC20': 'USDT/erc20',
  'USDT-TRC20': 'USDT/trc20',
};

/** The "SYMBOL/network" pairs of the deposit addresses that receive these assets. */
export function symbolNetworksOf(assets: readonly TAssetId[]): string[] {
  return assets.flatMap((a) => SYMBOL_NETWORK[a] ?? []);
}
