import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt with N=2^17, r=8, p=1: OWASP's first choice for scrypt (ASVS 11.4.2), 128 MiB and
// a few hundred milliseconds per hash. Node refuses more than 32 MiB unless told, so maxmem
// allows 256 MiB; hashes run on libuv's thread pool (4 threads by default), which bounds
// the memory of concurrent sign-ins to about 512 MiB.
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const MAXMEM = 256 * 1024 * 1024;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...params, maxmem: MAXMEM },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

type Parsed = { N: number; r: number; p: number; salt: Buffer; hash: Buffer };

/** The parts of `scrypt$N$r$p$salt$hash`, or null when it is not one of our hashes. */
function parse(stored: string): Parsed | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash || rest.length > 0) return null;
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  // Parameters scrypt would refuse (or take minutes over) are not ours either.
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > PARAMS.N || !Number.isInteger(R) || !Number.isInteger(P)) return null;
  if (R < 1 || R > 32 || P < 1 || P > 16) return null;
  return { N, r: R, p: P, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/** `scrypt$N$r$p$salt$hash`, base64 parts: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

/** Checks a password against a stored hash, whatever parameters it was made with. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, { N: parsed.N, r: parsed.r, p: parsed.p });
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/**
 * True when a stored hash was made with weaker parameters than today's: after a successful
 * sign-in, the password is hashed again with the current ones.
 */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return (
    !parsed ||
    parsed.N < PARAMS.N ||
    parsed.r < PARAMS.r ||
    parsed.p < PARAMS.p ||
    parsed.hash.length < KEY_LENGTH
  );
}

/** A hash of nothing, verified against when the account does not exist, so timing says nothing. */
export const DUMMY_PASSWORD_HASH = await hashPassword(randomBytes(16).toString('hex'));
