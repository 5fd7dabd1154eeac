import {
  ASSETS,
  CUSTOMER_ASSET_IDS,
  parseAmount,
  type TAsset,
  type TAssetId,
} from '@coffer/shared';
import type pg from 'pg';
import type { PriceService } from '../prices';
import { walletsRepository as repo, type WalletBalanceRow } from './wallets.repository';

/** What the parts of the wallets service share, built once by `createWalletsService`. */
export type WalletsContext = {
  pool: pg.Pool;
  prices: Pick<PriceService, 'current' | 'priceAt'>;
};

/** Prices are compared at 18 decimals: exact for every price the feeds and snapshots hold. */
export const PRICE_SCALE = 18;

/** USD stablecoins: the price service fixes them at 1, and no snapshot is kept of them. */
const FIXED_PRICE_SYMBOLS = new Set(['USDT', 'USDC']);
export const isFixedPrice = (asset: TAsset) => FIXED_PRICE_SYMBOLS.has(asset.symbol);

export type Held = {
  id: TAssetId;
  asset: TAsset;
  row: WalletBalanceRow;
  balance: bigint;
  held: bigint;
};

/** The customer wallets in catalogue order. */
export const CUSTOMER_WALLETS = CUSTOMER_ASSET_IDS.map((id) => ({ id, asset: ASSETS[id] }));

/** A signed decimal string ('-1.25') in units of 10^-decimals. */
export function signedUnits(value: string, decimals: number): bigint {
  const text = value.trim();
  const negative = text.startsWith('-');
  const magnitude = parseAmount(negative ? text.slice(1) : text, decimals);
  return negative ? -magnitude : magnitude;
}

/** The customer's catalogue wallets in catalogue order; missing ones are opened at zero. */
export async function holdings(ctx: WalletsContext, userId: string): Promise<Held[]> {
  let rows = await repo.list(ctx.pool, userId);
  const missing = CUSTOMER_WALLETS.filter(({ id }) => !rows.some((r) => r.asset_id === id));
  if (missing.length > 0) {
    await repo.createMissing(
      ctx.pool,
      userId,
      missing.map(({ id, asset }) => ({ assetId: id, network: asset.network })),
    );
    rows = await repo.list(ctx.pool, userId);
  }
  return CUSTOMER_WALLETS.map(({ id, asset }) => {
    const row = rows.find((r) => r.asset_id === id);
    if (!row) throw new Error(`wallet ${id} of ${userId} is missing`);
    return {
      id,
      asset,
      row,
      balance: row.balance,
      held: row.held,
    };
  });
}
