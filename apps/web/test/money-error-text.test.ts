import { ERROR_CODES, type TErrorCode } from '@coffer/shared';
import { describe, expect, it } from 'vitest';
import { transferErrorText } from '../src/features/bank/components/transfer-error-text';
import { withdrawalErrorText } from '../src/features/withdraw/components/withdrawal-error-text';
import { ApiError } from '../src/lib/api-client';
import { MONEY_ERROR_TEXT } from '../src/lib/money/error-text';

/** The codes whose server message is shown as it is: it names the field, limit or wait. */
const SERVER_WORDS: readonly TErrorCode[] = [
  'VALIDATION_FAILED',
  'TWO_FACTOR_REQUIRED',
  'RATE_LIMITED',
  'INSUFFICIENT_BALANCE',
  'LIMIT_EXCEEDED',
  'SERVICE_DISABLED',
  'IDEMPOTENCY_CONFLICT',
];

const refusal = (code: TErrorCode, status = 400) => new ApiError(status, code, `server: ${code}`);

describe('the money error-text map', () => {
  it('has one entry for every API error code and the broken connection, nothing else', () => {
    expect(Object.keys(MONEY_ERROR_TEXT).sort()).toEqual([...ERROR_CODES, 'NETWORK'].sort());
  });

  it("shows the server's own message for a refusal the customer can act on", () => {
    for (const code of SERVER_WORDS) {
      expect(withdrawalErrorText(refusal(code))).toBe(`server: ${code}`);
      expect(transferErrorText(refusal(code))).toBe(`server: ${code}`);
    }
  });

  it('reads as a plain failure for every other code', () => {
    const others = ERROR_CODES.filter((c) => c !== 'UNAUTHENTICATED' && !SERVER_WORDS.includes(c));
    expect(others.length).toBeGreaterThan(0);
    for (const code of others) {
      expect(withdrawalErrorText(refusal(code, 500))).toBe('Failed to submit withdrawal request');
      expect(transferErrorText(refusal(code, 500))).toBe('Failed to submit bank transfer request');
    }
  });

  it('asks a signed-out customer to log in, naming the request', () => {
    const signedOut = refusal('UNAUTHENTICATED', 401);
    expect(withdrawalErrorText(signedOut)).toBe('You must be logged in to make a withdrawal');
    expect(transferErrorText(signedOut)).toBe(
      'You must be logged in to make a bank transfer request',
    );
  });

  it('after a broken connection, says that sending it again is safe', () => {
    const network = new ApiError(0, 'NETWORK', 'Could not reach Coffer.');
    expect(withdrawalErrorText(network)).toBe(
      'Could not reach Coffer. Submitting the same request again is safe: it is never paid twice.',
    );
    expect(transferErrorText(network)).toBe(
      'Could not reach Coffer. Submitting the same request again is safe: it is never made twice.',
    );
  });

  it('reads as a plain failure for something that is not an API error', () => {
    expect(withdrawalErrorText(new Error('boom'))).toBe('Failed to submit withdrawal request');
    expect(transferErrorText('boom')).toBe('Failed to submit bank transfer request');
  });
});
