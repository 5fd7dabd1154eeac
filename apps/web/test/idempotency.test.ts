import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/lib/api-client';
import { createIdempotencyKeys } from '../src/lib/money/idempotency';

/** Keys numbered in the order they are made, so a test can tell a fresh one from a reused one. */
function numbered() {
  let n = 0;
  return () => `key-${++n}`;
}

const DRAFT = { assetId: 'BTC', amount: '0.5', address: 'bc1q' };
const networkError = new ApiError(0, 'NETWORK', 'Could not reach Coffer.');

describe('idempotency keys', () => {
  it('gives each new request its own key', () => {
    const keys = createIdempotencyKeys(numbered());
    expect(keys.keyFor(DRAFT)).toBe('key-1');
    keys.settle();
    expect(keys.keyFor(DRAFT)).toBe('key-2');
  });

  it('sends the same key again when the outcome of the last submit is unknown', () => {
    const keys = createIdempotencyKeys(numbered());
    expect(keys.keyFor(DRAFT)).toBe('key-1');
    keys.settle(networkError);
    expect(keys.keyFor(DRAFT)).toBe('key-1');
    keys.settle(new ApiError(502, 'INTERNAL', 'Bad gateway'));
    expect(keys.keyFor(DRAFT)).toBe('key-1');
  });

  it('makes a fresh key after a refusal: the server did not carry it out', () => {
    const keys = createIdempotencyKeys(numbered());
    keys.keyFor(DRAFT);
    keys.settle(new ApiError(400, 'INSUFFICIENT_BALANCE', 'Insufficient balance.'));
    expect(keys.keyFor(DRAFT)).toBe('key-2');
  });

  it('makes a fresh key when the request changed, even after an unknown outcome', () => {
    const keys = createIdempotencyKeys(numbered());
    keys.keyFor(DRAFT);
    keys.settle(networkError);
    expect(keys.keyFor({ ...DRAFT, amount: '0.6' })).toBe('key-2');
  });

  it('makes random keys by default', () => {
    const keys = createIdempotencyKeys();
    const first = keys.keyFor(DRAFT);
    keys.settle();
    const second = keys.keyFor(DRAFT);
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(second).not.toBe(first);
  });
});
