import { describe, expect, it } from 'vitest';
import { phraseWords } from '../src/lib/phrase';
import { resolveAsset } from '../src/lib/resolve-asset';

describe('phraseWords', () => {
  it('splits on any run of spaces, in order, keeping repeated words', () => {
    expect(phraseWords('  apple  banana\tapple\ncherry ')).toEqual([
      'apple',
      'banana',
      'apple',
      'cherry',
    ]);
  });

  it('has no words for an empty phrase', () => {
    expect(phraseWords('   ')).toEqual([]);
  });
});

describe('resolveAsset', () => {
  it('reads a slug, an id with its dash or a bare symbol, in any case', () => {
    expect(resolveAsset('usdttrc20')?.id).toBe('USDT-TRC20');
    expect(resolveAsset('USDT-ERC20')?.id).toBe('USDT-ERC20');
    expect(resolveAsset(' btc ')?.id).toBe('BTC');
    expect(resolveAsset('Eth')?.id).toBe('ETH');
  });

  it('knows no staff-only asset and nothing it cannot name', () => {
    expect(resolveAsset('usdc')).toBeUndefined();
    expect(resolveAsset('doge')).toBeUndefined();
    expect(resolveAsset(undefined)).toBeUndefined();
  });
});
