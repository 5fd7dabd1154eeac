import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AmountError,
  amountMessages,
  centsToString,
  compareAmounts,
  convertFiat,
  formatAmount,
  fromMinor,
  mulPrice,
  parseAmount,
  sumUsd,
  toMinor,
  usdCents,
  ZAmount,
  ZAssetAmount,
} from './money';

const BTC = amountMessages(8, 'BTC');

/** The AmountError a parse throws, or undefined when it parses. */
function parseError(input: string, decimals: number, messages = BTC): AmountError | undefined {
  try {
    parseAmount(input, decimals, messages);
    return undefined;
  } catch (error) {
    if (error instanceof AmountError) return error;
    throw error;
  }
}

describe('parseAmount', () => {
  it('reads whole, fractional and smallest amounts in minor units', () => {
    expect(parseAmount('1', 8)).toBe(100_000_000n);
    expect(parseAmount('1.5', 8)).toBe(150_000_000n);
    expect(parseAmount('0.00000001', 8)).toBe(1n);
    expect(parseAmount('0', 8)).toBe(0n);
    expect(parseAmount('000001.10', 8)).toBe(110_000_000n);
    expect(parseAmount('42', 0)).toBe(42n);
  });

  it('trims spaces and takes a bare point on either side', () => {
    expect(parseAmount(' 1.0 ', 8)).toBe(100_000_000n);
    expect(parseAmount('.5', 8)).toBe(50_000_000n);
    expect(parseAmount('5.', 8)).toBe(500_000_000n);
  });

  it('accepts exactly the asset decimals and refuses one more, naming the asset', () => {
    expect(parseAmount('1.12345678', 8)).toBe(112_345_678n);
    const error = parseError('1.123456789', 8);
    expect(error?.code).toBe('TOO_MANY_DECIMALS');
    expect(error?.message).toBe('Amount can have at most 8 decimal places for BTC');
    expect(parseError('0.1234567', 6, amountMessages(6, 'USDT'))?.message).toBe(
      'Amount can have at most 6 decimal places for USDT',
    );
    expect(parseError('0.12', 1, amountMessages(1))?.message).toBe(
      'Amount can have at most 1 decimal place',
    );
  });

  it('lets trailing zeros past the decimals through, since they change nothing', () => {
    expect(parseAmount('1.123456780000', 8)).toBe(112_345_678n);
  });

  it('keeps 18-decimal ETH amounts and values beyond 2^53 exact', () => {
    expect(parseAmount('0.000000000000000001', 18)).toBe(1n);
    expect(parseAmount('123456789.123456789012345678', 18)).toBe(123456789123456789012345678n);
    // 2^53 + 1 micro-USDT: a double would read it as 2^53.
    expect(parseAmount('9007199254.740993', 6)).toBe(9007199254740993n);
    expect(parseAmount('99999999999999999999.999999999999999999', 18)).toBe(10n ** 38n - 1n);
  });

  it('refuses empty, negative, exponent and anything not a plain decimal', () => {
    const cases: [string, string][] = [
      ['', 'REQUIRED'],
      ['   ', 'REQUIRED'],
      ['-1', 'NEGATIVE'],
      ['-0.5', 'NEGATIVE'],
      ['1e3', 'INVALID'],
      ['1E-8', 'INVALID'],
      ['abc', 'INVALID'],
      ['-abc', 'INVALID'],
      ['.', 'INVALID'],
      ['+1', 'INVALID'],
      ['1,000', 'INVALID'],
      ['1.2.3', 'INVALID'],
      ['0x10', 'INVALID'],
      ['Infinity', 'INVALID'],
      ['NaN', 'INVALID'],
      ['1 000', 'INVALID'],
      ['\uff11', 'INVALID'],
      ['1'.repeat(200), 'INVALID'],
      ['1'.repeat(21), 'TOO_LARGE'],
    ];
    for (const [input, code] of cases) {
      expect(parseError(input, 8)?.code, input).toBe(code);
    }
    expect(parseError('', 8)?.message).toBe('Amount is required');
    expect(parseError('-1', 8)?.message).toBe('Amount cannot be negative');
  });

  it('refuses an unusable decimals argument as a programming error', () => {
    expect(() => parseAmount('1', -1)).toThrow(RangeError);
    expect(() => parseAmount('1', 1.5)).toThrow(RangeError);
  });
});

describe('formatAmount', () => {
  it('prints exact decimals without trailing zeros', () => {
    expect(formatAmount(150_000_000n, 8)).toBe('1.5');
    expect(formatAmount(0n, 8)).toBe('0');
    expect(formatAmount(1n, 18)).toBe('0.000000000000000001');
    expect(formatAmount(123456789123456789012345678n, 18)).toBe('123456789.123456789012345678');
    expect(formatAmount(42n, 0)).toBe('42');
    expect(formatAmount(-150_000_000n, 8)).toBe('-1.5');
  });

  it('cuts display digits toward zero, never up', () => {
    expect(formatAmount(123_456_789n, 8, { maxFractionDigits: 6 })).toBe('1.234567');
    expect(formatAmount(199_999_999n, 8, { maxFractionDigits: 2 })).toBe('1.99');
    expect(formatAmount(123456789999999999n, 18, { maxFractionDigits: 6 })).toBe('0.123456');
    expect(formatAmount(-199_999_999n, 8, { maxFractionDigits: 2 })).toBe('-1.99');
    expect(formatAmount(-1n, 8, { maxFractionDigits: 2 })).toBe('0');
    expect(formatAmount(-1n, 8, { minFractionDigits: 2, maxFractionDigits: 2 })).toBe('0.00');
  });

  it('pads to a minimum and groups thousands on request', () => {
    expect(formatAmount(150_000_000n, 8, { minFractionDigits: 2 })).toBe('1.50');
    expect(formatAmount(150_000_000n, 8, { minFractionDigits: 8 })).toBe('1.50000000');
    expect(formatAmount(1n, 0, { minFractionDigits: 2 })).toBe('1.00');
    expect(formatAmount(123456789_50n, 2, { grouping: true })).toBe('123,456,789.5');
    expect(formatAmount(-1000_000000n, 6, { grouping: true, minFractionDigits: 2 })).toBe(
      '-1,000.00',
    );
    expect(formatAmount(999n, 0, { grouping: true })).toBe('999');
  });

  it('round-trips with parseAmount', () => {
    for (const minor of [0n, 1n, 10n ** 18n, 2n ** 64n + 7n, 123456789123456789012345678n]) {
      expect(parseAmount(formatAmount(minor, 18), 18)).toBe(minor);
    }
  });
});

describe('toMinor and fromMinor', () => {
  it('use the asset decimals and name the asset in messages', () => {
    expect(toMinor('BTC', '0.0001')).toBe(10_000n);
    expect(toMinor('ETH', '0.002')).toBe(2_000_000_000_000_000n);
    expect(toMinor('USDT-TRC20', '1.000001')).toBe(1_000_001n);
    expect(() => toMinor('USDT-ERC20', '1.0000001')).toThrow(
      'Amount can have at most 6 decimal places for USDT',
    );
    expect(fromMinor('BTC', 10_000n)).toBe('0.0001');
    expect(fromMinor('ETH', 1n)).toBe('0.000000000000000001');
    expect(fromMinor('USDC', 2_500_000n)).toBe('2.5');
  });
});

describe('mulPrice', () => {
  it('prices amounts exactly and rounds once, to cents, half-up', () => {
    expect(mulPrice(100_000_000n, 8, '42069')).toBe('42069.00');
    // 0.5 × 2890.75 = 1445.375: the tie goes up.
    expect(mulPrice(5n * 10n ** 17n, 18, '2890.75')).toBe('1445.38');
    expect(mulPrice(5_000n, 6, '1')).toBe('0.01');
    expect(mulPrice(4_999n, 6, '1')).toBe('0.00');
    // 12 satoshi × 42069 = 0.00504828 USD.
    expect(mulPrice(12n, 8, '42069')).toBe('0.01');
    expect(mulPrice(1n, 8, '42069')).toBe('0.00');
    expect(mulPrice(1n, 18, '2890.75')).toBe('0.00');
    expect(mulPrice(0n, 8, '42069')).toBe('0.00');
  });

  it('stays exact for amounts and prices no double could hold', () => {
    expect(mulPrice(123456789123456789012345678n, 18, '2890.75')).toBe('356882713158.63');
    expect(mulPrice(1_234_567_891n, 6, '0.99987654')).toBe('1234.42');
  });

  it('refuses a price that is not a plain non-negative decimal, every time it is asked', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => mulPrice(1n, 8, '-1')).toThrow(RangeError);
      expect(() => mulPrice(1n, 8, '1e3')).toThrow(RangeError);
      expect(() => mulPrice(1n, 8, '')).toThrow(RangeError);
    }
  });

  it('values at each price asked, however many prices come and go', () => {
    for (let cents = 1; cents <= 200; cents++) {
      const price = (cents / 100).toFixed(2);
      expect(mulPrice(300_000_000n, 8, price)).toBe(((cents * 3) / 100).toFixed(2));
    }
    expect(mulPrice(100_000_000n, 8, '0.01')).toBe('0.01');
  });
});

describe('usdCents', () => {
  it('is the value mulPrice shows, in cents, so totals add exactly', () => {
    expect(usdCents(5n * 10n ** 17n, 18, '2890.75')).toBe(144_538n);
    expect(usdCents(12n, 8, '42069')).toBe(1n);
    expect(usdCents(0n, 8, '42069')).toBe(0n);
    const wallets: Array<[bigint, number, string]> = [
      [185_778_700n, 8, '97000.12'],
      [454_370n, 6, '1'],
      [85_652_000_000_000_000n, 18, '3500.5'],
    ];
    const total = wallets.reduce((sum, [m, d, p]) => sum + usdCents(m, d, p), 0n);
    expect(centsToString(total)).toBe(sumUsd(wallets.map(([m, d, p]) => mulPrice(m, d, p))));
    expect(centsToString(total)).toBe('180505.83');
  });
});

describe('sumUsd', () => {
  it('adds exactly where floats would drift', () => {
    expect(sumUsd(['0.10', '0.20'])).toBe('0.30');
    expect(sumUsd([])).toBe('0.00');
    expect(sumUsd(['1445.38', '42069.00', '-5.5'])).toBe('43508.88');
    expect(sumUsd(['0.005', '0.004'])).toBe('0.01');
    expect(sumUsd(Array.from({ length: 10 }, () => '0.1'))).toBe('1.00');
  });
});

describe('compareAmounts', () => {
  it('orders decimal strings by value, whatever their scale', () => {
    expect(compareAmounts('1.50', '1.5')).toBe(0);
    expect(compareAmounts('0.1', '0.09')).toBe(1);
    expect(compareAmounts('-1', '0')).toBe(-1);
    expect(compareAmounts('9007199254740993', '9007199254740992')).toBe(1);
    expect(['10', '9.99', '0.000000000000000001', '0'].sort(compareAmounts)).toEqual([
      '0',
      '0.000000000000000001',
      '9.99',
      '10',
    ]);
  });
});

describe('ZAmount', () => {
  const schema = ZAmount(8, BTC);

  it('outputs the normalized decimal string', () => {
    expect(schema.parse(' 1.0 ')).toBe('1');
    expect(schema.parse('01.50')).toBe('1.5');
    expect(schema.parse('.5')).toBe('0.5');
    expect(schema.parse('5.')).toBe('5');
    expect(schema.parse('0.00000001')).toBe('0.00000001');
  });

  it('requires a positive amount with the spec message', () => {
    for (const zero of ['0', '0.000', '.0']) {
      expect(schema.safeParse(zero).error?.issues[0]?.message).toBe(
        'Amount must be greater than 0',
      );
    }
  });

  it('reports the parse failure as the issue message', () => {
    const message = (input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
    expect(message('1.123456789')).toBe('Amount can have at most 8 decimal places for BTC');
    expect(message('-1')).toBe('Amount cannot be negative');
    expect(message('1e3')).toBe('Enter the amount as a number, like 0.5');
    expect(message('')).toBe('Amount is required');
    // A JSON number has already lost precision, so it is refused rather than read.
    expect(message(1.5)).toBe('Enter the amount as a number, like 0.5');
    expect(z.object({ amount: schema }).safeParse({}).error?.issues[0]?.message).toBe(
      'Amount is required',
    );
  });

  it('takes caller messages over the defaults', () => {
    const custom = ZAmount(2, { NOT_POSITIVE: 'Enter more than nothing' });
    expect(custom.safeParse('0').error?.issues[0]?.message).toBe('Enter more than nothing');
    expect(custom.parse('0.01')).toBe('0.01');
  });

  it('follows the asset for ZAssetAmount', () => {
    expect(ZAssetAmount('ETH').parse('0.000000000000000001')).toBe('0.000000000000000001');
    expect(ZAssetAmount('USDT-TRC20').safeParse('0.0000001').error?.issues[0]?.message).toBe(
      'Amount can have at most 6 decimal places for USDT',
    );
  });
});

describe('convertFiat', () => {
  it('converts AUD and USD both ways to cents, half-up', () => {
    expect(convertFiat('100', '0.66', 'aud-to-usd')).toBe('66.00');
    expect(convertFiat('66', '0.66', 'usd-to-aud')).toBe('100.00');
    expect(convertFiat('10', '0.66', 'usd-to-aud')).toBe('15.15');
    expect(convertFiat('1', '0.66', 'usd-to-aud')).toBe('1.52');
    expect(convertFiat('0.01', '0.66', 'aud-to-usd')).toBe('0.01');
    // 0.25 × 0.5 = 0.125: the tie goes up.
    expect(convertFiat('0.25', '0.5', 'aud-to-usd')).toBe('0.13');
    expect(convertFiat('0', '0.66', 'usd-to-aud')).toBe('0.00');
  });

  it('refuses a zero or negative rate', () => {
    expect(() => convertFiat('1', '0', 'usd-to-aud')).toThrow(RangeError);
    expect(() => convertFiat('1', '-0.66', 'aud-to-usd')).toThrow(RangeError);
  });
});
