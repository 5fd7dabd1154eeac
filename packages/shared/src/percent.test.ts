import { describe, expect, it } from 'vitest';
import { percentChange } from './percent';

describe('percentChange', () => {
  it('gives the change in percent with two decimals', () => {
    expect(percentChange('100', '112.5')).toBe('12.50');
    expect(percentChange('42069', '42069')).toBe('0.00');
    expect(percentChange('2890.75', '2840.75')).toBe('-1.73');
  });

  it('rounds half away from zero', () => {
    expect(percentChange('3', '3.00015')).toBe('0.01'); // 0.005 %
    expect(percentChange('3', '2.99985')).toBe('-0.01');
    expect(percentChange('3', '3.0001')).toBe('0.00'); // 0.0033 %
  });

  it('has no answer from zero', () => {
    expect(percentChange('0', '5')).toBeNull();
  });
});
