import { base32Decode, totpAt } from '@server-test/totp-reference';
import { describe, expect, it } from 'vitest';
import { matchTotpStep, newTotpSecret, otpauthUrl } from './totp';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890".
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];
const STEP = 30;
// T=59 is in the second step ever: there is no step two before it to drift back to.
const DRIFT_TIMES = RFC_VECTORS.map(([seconds]) => seconds).filter(
  (seconds) => seconds >= 2 * STEP,
);

describe('the reference TOTP used by the tests', () => {
  it('decodes the RFC seed', () => {
    expect(base32Decode(RFC_SECRET).toString('ascii')).toBe('12345678901234567890');
  });

  it.each(RFC_VECTORS)('reproduces RFC 6238 Appendix B at T=%i', (seconds, code) => {
    expect(totpAt(RFC_SECRET, seconds * 1000, 8)).toBe(code);
    // Six digits are the last six of the eight: the value modulo 10^6.
    expect(totpAt(RFC_SECRET, seconds * 1000)).toBe(code.slice(2));
  });
});

describe('the server accepting a code', () => {
  it.each(RFC_VECTORS)('accepts the code of T=%i and names its 30-second step', (seconds) => {
    const now = seconds * 1000;
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, now), now)).toBe(
      Math.floor(seconds / STEP),
    );
  });

  it.each(DRIFT_TIMES)('allows one step of clock drift either way at T=%i', (seconds) => {
    const now = seconds * 1000;
    const step = Math.floor(seconds / STEP);
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, now + STEP * 1000), now)).toBe(step + 1);
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, now - STEP * 1000), now)).toBe(step - 1);
  });

  it.each(DRIFT_TIMES)('refuses codes two steps away at T=%i', (seconds) => {
    const now = seconds * 1000;
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, now + 2 * STEP * 1000), now)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, now - 2 * STEP * 1000), now)).toBeNull();
  });

  it('refuses a code made with another secret', () => {
    const now = 1234567890 * 1000;
    const other = newTotpSecret();
    expect(matchTotpStep(RFC_SECRET, totpAt(other, now), now)).toBeNull();
  });
});

describe('a new secret and its otpauth URL', () => {
  it('is 160 random bits that an authenticator app reads from the URL', () => {
    const secret = newTotpSecret();
    expect(base32Decode(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);

    const url = new URL(otpauthUrl(secret, 'ann@example.com'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Coffer:ann@example.com');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Coffer');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
  });
});
