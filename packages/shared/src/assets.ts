import { z } from 'zod';

/**
 * The asset catalogue. Every place that needs
 * an asset's decimals, fee, price id or label reads it from here, so the browser and the
 * server can never disagree about, say, how many decimals USDT has.
 */

/** The four customer wallets, in the order the screens list them. */
export const CUSTOMER_ASSET_IDS = ['BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20'] as const;
export type TAssetId = (typeof CUSTOMER_ASSET_IDS)[number];

/** Customer wallets plus the assets only staff record transactions in. */
export const ALL_ASSET_IDS = [...CUSTOMER_ASSET_IDS, 'USDC'] as const;
export type TAnyAssetId = (typeof ALL_ASSET_IDS)[number];

/** Networks the catalogue's assets live on; USDT is a token on two of them. */
export type TAssetNetwork = 'bitcoin' | 'ethereum' | 'erc20' | 'trc20';

export type TAsset = {
  readonly id: TAnyAssetId;
  readonly symbol: string;
  readonly name: string;
  readonly network: TAssetNetwork;
  /** Minor units per whole coin, as a power of ten: amounts are bigint in those units. */
  readonly decimals: number;
  /**
   * Decimals every screen shows an amount with (formatAssetAmount): enough to tell amounts
   * of this asset apart, and the same on every screen, customer's and staff's alike.
   */
  readonly displayDecimals: number;
  /** Key into the price feed. */
  readonly priceId: string;
  /** USD price shown when the feed is unavailable, as a decimal string. */
  readonly fallbackPriceUsd: string;
  /** Fee added to a withdrawal and held with it, in whole coins. */
  readonly networkFee: string;
  /** Path segment in /dashboard/asset/{slug}. */
  readonly slug: string;
  /** Text of the asset's option in selects. */
  readonly label: string;
  /** True for assets customers have no wallet in; only staff screens offer them. */
  readonly adminOnly: boolean;
  /**
   * True where the network's payments carry a memo or destination tag that an exchange needs
   * to credit the right account (XRP, Stellar and the like); only then does a withdrawal ask
   * for one. None of the catalogue's networks has one: an address alone names the receiver.
   */
  readonly usesMemo: boolean;
};

export const ASSETS: Readonly<Record<TAnyAssetId, TAsset>> = {
  BTC: {
    id: 'BTC',
    symbol: 'BTC',
    name: 'Bitcoin',
    network: 'bitcoin',
    decimals: 8,
    displayDecimals: 8,
    priceId: 'bitcoin',
    fallbackPriceUsd: '42069',
    networkFee: '0.0001',
    slug: 'btc',
    label: 'BTC - Bitcoin',
    adminOnly: false,
    usesMemo: false,
  },
  ETH: {
    id: 'ETH',
    symbol: 'ETH',
    name: 'Ethereum',
    network: 'ethereum',
    decimals: 18,
    displayDecimals: 6,
    priceId: 'ethereum',
    fallbackPriceUsd: '2890.75',
    networkFee: '0.002',
    slug: 'eth',
    label: 'ETH - Ethereum',
    adminOnly: false,
    usesMemo: false,
  },
  'USDT-ERC20': {
    id: 'USDT-ERC20',
    symbol: 'USDT',
    name: 'Tether',
    network: 'erc20',
    decimals: 6,
    displayDecimals: 2,
    priceId: 'tether-erc20',
    fallbackPriceUsd: '1',
    networkFee: '0.002',
    slug: 'usdterc20',
    label: 'USDT - Tether (ERC-20)',
    adminOnly: false,
    usesMemo: false,
  },
  'USDT-TRC20': {
    id: 'USDT-TRC20',
    symbol: 'USDT',
    name: 'Tether',
    network: 'trc20',
    decimals: 6,
    displayDecimals: 2,
    priceId: 'tether-trc20',
    fallbackPriceUsd: '1',
    // §9 names one fee for "USDT"; both networks take it.
    networkFee: '0.002',
    slug: 'usdttrc20',
    label: 'USDT - Tether (TRC-20)',
    adminOnly: false,
    usesMemo: false,
  },
  USDC: {
    id: 'USDC',
    symbol: 'USDC',
    name: 'USD Coin',
    network: 'ethereum',
    decimals: 6,
    displayDecimals: 2,
    // Prices are keyed "bitcoin, ethereum, tether, usdc".
    priceId: 'usdc',
    fallbackPriceUsd: '1',
    // §9's fee for any other asset; customers cannot withdraw USDC, so it is never charged.
    networkFee: '0.001',
    slug: 'usdc',
    label: 'USDC - USD Coin',
    adminOnly: true,
    usesMemo: false,
  },
};

/** The customer wallets in display order. */
export const CUSTOMER_ASSETS: readonly TAsset[] = CUSTOMER_ASSET_IDS.map((id) => ASSETS[id]);

/** A customer wallet's id in a request; the message is the withdrawal form's. */
export const ZAssetId = z.enum(CUSTOMER_ASSET_IDS, { error: 'Please select a cryptocurrency' });

/** Any catalogue asset, USDC included: for staff screens that record transactions. */
export const ZAnyAssetId = z.enum(ALL_ASSET_IDS, { error: 'Please select an asset' });

function isAssetId(id: string): id is TAnyAssetId {
  return Object.hasOwn(ASSETS, id);
}

/** The catalogue entry for an id (USDC included), or undefined for anything else. */
export function assetById(id: string): TAsset | undefined {
  return isAssetId(id) ? ASSETS[id] : undefined;
}

/**
 * The customer wallet behind a /dashboard/asset/{slug} URL. Case-insensitive, since people
 * type and share these URLs; admin-only assets have no customer page, so they are not found.
 */
export function assetBySlug(slug: string): TAsset | undefined {
  const wanted = slug.trim().toLowerCase();
  return CUSTOMER_ASSETS.find((asset) => asset.slug === wanted);
}

/** The catalogue's networks, and the others staff may file a deposit address under. */
const NETWORK_LABELS: Readonly<Record<string, string>> = {
  bitcoin: 'Bitcoin Network',
  ethereum: 'Ethereum Network',
  erc20: 'ERC-20',
  trc20: 'TRC-20',
  bep20: 'BEP-20',
  solana: 'Solana',
  polygon: 'Polygon',
};

/** Network display name: known ids get a label, others show as stored. */
export function networkLabel(network: string | null | undefined): string {
  if (network == null || network === '') return 'Unknown';
  return Object.hasOwn(NETWORK_LABELS, network) ? (NETWORK_LABELS[network] ?? network) : network;
}
