import { describe, expect, it } from 'vitest';
import {
  changeClass,
  changeDirection,
  formatAud,
  formatChange,
  formatCrypto,
  formatMinor,
  formatUsd,
  listDigits,
  roundDecimal,
  toMinorOrNull,
} from '../src/lib/money/format';

describe('roundDecimal', () => {
  it('rounds half up, away from zero, with grouping', () => {
    expect(roundDecimal('1234.565', 2)).toBe('1,234.57');
    expect(roundDecimal('1234.564', 2)).toBe('1,234.56');
    expect(roundDecimal('-1234.565', 2)).toBe('-1,234.57');
    expect(roundDecimal('0.995', 2)).toBe('1.00');
    expect(roundDecimal('999999.995', 2)).toBe('1,000,000.00');
  });

  it('pads to the places asked for, and can leave out grouping', () => {
    expect(roundDecimal('5', 2)).toBe('5.00');
    expect(roundDecimal('1234567.1', 3, false)).toBe('1234567.100');
    expect(roundDecimal(' 42.5 ', 0)).toBe('43');
  });

  it('shows a negative value rounded to zero without a minus sign', () => {
    expect(roundDecimal('-0.004', 2)).toBe('0.00');
  });

  it('is null for anything that is not a decimal number', () => {
    for (const bad of ['', 'abc', '1e5', '1.2.3', '.5', '$1']) {
      expect(roundDecimal(bad, 2)).toBeNull();
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

  it('colours a change green from zero up, red below, muted when unknown', () => {
    expect(changeDirection('0')).toBe('up');
    expect(changeDirection('-0.01')).toBe('down');
    expect(changeDirection(null)).toBeNull();
    expect(changeDirection('x')).toBeNull();
    expect(changeClass('2')).toBe('text-success');
    expect(changeClass('-2')).toBe('text-danger');
    expect(changeClass(undefined)).toBe('text-muted');
  });
});

describe('crypto amounts', () => {
  it('cuts toward zero so a balance never reads as more than there is', () => {
    expect(formatCrypto('0.123456789', 18, 6)).toBe('0.123456');
    expect(formatCrypto('1234.99999999', 8, 2)).toBe('1,234.99');
    expect(formatMinor(150_000_000n, 8, 8)).toBe('1.50000000');
  });

  it('shows an amount it cannot read as it came', () => {
    expect(formatCrypto('abc', 8, 2)).toBe('abc');
  });

  it('reads wire amounts into minor units, or null', () => {
    expect(toMinorOrNull('1.5', 8)).toBe(150_000_000n);
    expect(toMinorOrNull('0.000000001', 8)).toBeNull();
    expect(toMinorOrNull('-1', 8)).toBeNull();
    expect(toMinorOrNull('', 8)).toBeNull();
  });

  it('lists ETH with 6 decimals, BTC with 8 and a stablecoin with 2', () => {
    expect(listDigits({ id: 'ETH', decimals: 18 })).toBe(6);
    expect(listDigits({ id: 'BTC', decimals: 8 })).toBe(8);
    expect(listDigits({ id: 'USDT-ERC20', decimals: 6 })).toBe(2);
  });
});
