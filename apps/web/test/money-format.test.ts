import { describe, expect, it } from 'vitest';
import { changeClass } from '../src/lib/money/format';

describe('changeClass', () => {
  it('colours a change green from zero up, red below, muted when unknown', () => {
    expect(changeClass('0')).toBe('text-success');
    expect(changeClass('2')).toBe('text-success');
    expect(changeClass('-2')).toBe('text-danger');
    expect(changeClass(undefined)).toBe('text-muted');
  });
});
