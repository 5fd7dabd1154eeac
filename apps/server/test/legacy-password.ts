import { randomBytes, scryptSync } from 'node:crypto';

/** A hash as Coffer stored them before scrypt's cost went up: N=2^15, r=8, p=1. */
export function legacyPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, {
    N: 2 ** 15,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  return ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}
