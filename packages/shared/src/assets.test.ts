import { describe, expect, it } from 'vitest';
import {
  ALL_ASSET_IDS,
  ASSETS,
  assetById,
  assetBySlug,
  CUSTOMER_ASSETS,
  networkLabel,
  ZAnyAssetId,
  ZAssetId,
} from './assets';
import { parseAmount } from './money';

describe('asset catalogue', () => {
  it('lists the four customer wallets in order, with the spec figures', () => {
    expect(
      CUSTOMER_ASSETS.map((a) => [a.id, a.symbol, a.network, a.decimals, a.networkFee, a.slug]),
    ).toEqual([
      ['BTC', 'BTC', 'bitcoin', 8, '0.0001', 'btc'],
      ['ETH', 'ETH', 'ethereum', 18, '0.002', 'eth'],
      ['USDT-ERC20', 'USDT', 'erc20', 6, '0.002', 'usdterc20'],
      ['USDT-TRC20', 'USDT', 'trc20', 6, '0.002', 'usdttrc20'],
    ]);
    expect(CUSTOMER_ASSETS.map((a) => a.fallbackPriceUsd)).toEqual(['42069', '2890.75', '1', '1']);
    expect(CUSTOMER_ASSETS.map((a) => a.label)).toEqual([
      'BTC - Bitcoin',
      'ETH - Ethereum',
      'USDT - Tether (ERC-20)',
      'USDT - Tether (TRC-20)',
    ]);
  });

  it('keys every entry by its own id, with figures its decimals can hold', () => {
    for (const id of ALL_ASSET_IDS) {
      const asset = ASSETS[id];
      expect(asset.id).toBe(id);
      expect(parseAmount(asset.networkFee, asset.decimals)).toBeGreaterThan(0n);
      expect(parseAmount(asset.fallbackPriceUsd, 2)).toBeGreaterThan(0n);
    }
  });

  it('keeps USDC for staff only', () => {
    expect(assetById('USDC')?.adminOnly).toBe(true);
    expect(CUSTOMER_ASSETS.some((a) => a.id === 'USDC')).toBe(false);
    expect(ZAssetId.safeParse('USDC').error?.issues[0]?.message).toBe(
      'Please select a cryptocurrency',
    );
    expect(ZAnyAssetId.parse('USDC')).toBe('USDC');
  });

  it('asks for a memo or tag on no network of the catalogue: an address names the receiver', () => {
    expect(ALL_ASSET_IDS.filter((id) => ASSETS[id].usesMemo)).toEqual([]);
  });

  it('looks assets up by id and by URL slug', () => {
    expect(assetById('ETH')?.name).toBe('Ethereum');
    expect(assetById('eth')).toBeUndefined();
    expect(assetById('toString')).toBeUndefined();
    expect(assetBySlug('USDTTRC20')?.id).toBe('USDT-TRC20');
    expect(assetBySlug('btc')?.id).toBe('BTC');
    expect(assetBySlug('usdc')).toBeUndefined();
    expect(assetBySlug('doge')).toBeUndefined();
  });

  it('names networks as the spec shows them', () => {
    expect(networkLabel('bitcoin')).toBe('Bitcoin Network');
    expect(networkLabel('ethereum')).toBe('Ethereum Network');
    expect(networkLabel('erc20')).toBe('ERC-20');
    expect(networkLabel('trc20')).toBe('TRC-20');
    expect(networkLabel('bep20')).toBe('BEP-20');
    expect(networkLabel('solana')).toBe('Solana');
    expect(networkLabel('polygon')).toBe('Polygon');
    expect(networkLabel('dogecoin')).toBe('dogecoin');
    expect(networkLabel('')).toBe('Unknown');
    expect(networkLabel(null)).toBe('Unknown');
    expect(networkLabel(undefined)).toBe('Unknown');
  });
});
