import { describe, expect, it } from 'vitest';
import { ASSETS, CUSTOMER_ASSETS } from '../assets';
import {
  changeDirection,
  formatAssetAmount,
  formatAud,
  formatChange,
  formatRounded,
  formatUsd,
  toMinorOrNull,
} from './amounts';

describe('formatRounded', () => {
  it('rounds half up, away from zero, with grouping', () => {
    expect(formatRounded('1234.565', 2)).toBe('1,234.57');
    expect(formatRounded('1234.564', 2)).toBe('1,234.56');
    expect(formatRounded('-1234.565', 2)).toBe('-1,234.57');
    expect(formatRounded('0.995', 2)).toBe('1.00');
    expect(formatRounded('999999.995', 2)).toBe('1,000,000.00');
  });

  it('pads to the places asked for, and can leave out grouping', () => {
    expect(formatRounded('5', 2)).toBe('5.00');
    expect(formatRounded('1234567.1', 3, false)).toBe('1234567.100');
    expect(formatRounded(' 42.5 ', 0)).toBe('43');
  });

  it('shows a negative value rounded to zero without a minus sign', () => {
    expect(formatRounded('-0.004', 2)).toBe('0.00');
  });

  it('is null for anything that is not a decimal number', () => {
    for (const bad of ['', 'abc', '1e5', '1.2.3', '.5', '$1']) {
      expect(formatRounded(bad, 2)).toBeNull();
    }
  });
});

describe('formatUsd, formatAud and formatChange', () => {
  it('reads dollars with the sign before the symbol', () => {
    expect(formatUsd('1234.567')).toBe('$1,234.57');
    expect(formatUsd('-3.5')).toBe('-$3.50');
    expect(formatUsd('0')).toBe('$0.00');
    expect(formatAud('1234.567')).toBe('A$1,234.57');
    expect(formatAud('-3.5')).toBe('-A$3.50');
  });

  it('shows a dash for a missing or unreadable value', () => {
    for (const value of [null, undefined, 'n/a']) {
      expect(formatUsd(value)).toBe('—');
      expect(formatAud(value)).toBe('—');
      expect(formatChange(value)).toBe('—');
    }
  });

  it('signs a 24 h change: plus for zero and up, minus for down', () => {
    expect(formatChange('1.725')).toBe('+1.73%');
    expect(formatChange('0')).toBe('+0.00%');
    expect(formatChange('-0.4')).toBe('-0.40%');
  });

  it('tells a change up from zero on, down below zero, and nothing when unknown', () => {
    expect(changeDirection('0')).toBe('up');
    expect(changeDirection('-0.01')).toBe('down');
    expect(changeDirection(null)).toBeNull();
    expect(changeDirection('x')).toBeNull();
  });
});

describe('toMinorOrNull', () => {
  it('reads wire amounts into minor units, or null', () => {
    expect(toMinorOrNull('1.5', 8)).toBe(150_000_000n);
    expect(toMinorOrNull('0.000000001', 8)).toBeNull();
    expect(toMinorOrNull('-1', 8)).toBeNull();
    expect(toMinorOrNull('', 8)).toBeNull();
  });
});

describe('formatAssetAmount: one decimal policy per asset', () => {
  it('shows BTC with 8 decimals, ETH with 6 and USDT with 2', () => {
    expect(CUSTOMER_ASSETS.map((a) => [a.id, a.displayDecimals])).toEqual([
      ['BTC', 8],
      ['ETH', 6],
      ['USDT-ERC20', 2],
      ['USDT-TRC20', 2],
    ]);
    expect(formatAssetAmount(ASSETS.BTC, '0.5')).toBe('0.50000000 BTC');
    expect(formatAssetAmount(ASSETS.ETH, '1.375982123456789')).toBe('1.375982 ETH');
    expect(formatAssetAmount(ASSETS['USDT-TRC20'], '1234.5')).toBe('1,234.50 USDT');
    expect(formatAssetAmount(ASSETS.USDC, '7')).toBe('7.00 USDC');
  });

  it('takes minor units as well as wire amounts, and cuts toward zero', () => {
    // 0.0000009 ETH: under the sixth decimal, so nothing shows rather than a rounded-up 0.000001.
    expect(formatAssetAmount(ASSETS.ETH, 900_000_000_000n)).toBe('0.000000 ETH');
    expect(formatAssetAmount(ASSETS['USDT-ERC20'], 1_999_999n)).toBe('1.99 USDT');
    expect(formatAssetAmount(ASSETS.BTC, '21000000')).toBe('21,000,000.00000000 BTC');
  });

  it('shows every unit when asked for exactness, never fewer than the policy', () => {
    expect(formatAssetAmount(ASSETS['USDT-ERC20'], '0.002', { exact: true })).toBe('0.002 USDT');
    expect(formatAssetAmount(ASSETS.ETH, '0.123456789', { exact: true })).toBe('0.123456789 ETH');
    expect(formatAssetAmount(ASSETS.BTC, '0.1', { exact: true })).toBe('0.10000000 BTC');
  });

  it('can leave out the symbol, and shows an amount it cannot read as it came', () => {
    expect(formatAssetAmount(ASSETS.ETH, '2', { symbol: false })).toBe('2.000000');
    expect(formatAssetAmount(ASSETS.ETH, 'n/a')).toBe('n/a ETH');
  });
});
