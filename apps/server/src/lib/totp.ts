import { Secret, TOTP } from 'otpauth';

/** RFC 6238: SHA-1, 6 digits, 30-second steps (what every authenticator app expects). */
const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secretBase32: string, account: string): string {
  return new TOTP({
    issuer: 'Coffer',
    label: account,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  }).toString();
}

/**
 * The 30-second step a code belongs to, accepting one step of clock drift either way,
 * or null when it matches none. Callers refuse steps at or before the last one used.
 */
export function matchTotpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const totp = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD) + delta;
}
