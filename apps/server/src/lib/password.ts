import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { MSG, passwordUserInputs, passwordWeakness } from '@coffer/shared';
import { AppError } from './app-error';

// scrypt with N=2^17, r=8, p=1: OWASP's first choice for scrypt (ASVS 11.4.2), 128 MiB and
// a few hundred milliseconds per hash. Node refuses more than 32 MiB unless told, so maxmem
// allows 256 MiB.
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;

/**
 * The parameters new hashes are made with: always PARAMS, but under the unit test runner
 * (VITEST set by it, never by an operator) a cheaper power of two may be asked for with
 * COFFER_TEST_SCRYPT_N: thousands of test sign-ups would otherwise spend most of the suite
 * in scrypt (decision 0038). The code path is the same; the files that test the cost itself
 * and the hashing pool's queue keep PARAMS.
 */
function currentParams(): { N: number; r: number; p: number } {
  const n = process.env.VITEST ? Number(process.env.COFFER_TEST_SCRYPT_N) : Number.NaN;
  const cheaper = Number.isInteger(n) && n >= 1024 && n < PARAMS.N && (n & (n - 1)) === 0;
  return cheaper ? { ...PARAMS, N: n } : PARAMS;
}
const MAXMEM = 256 * 1024 * 1024;
const KEY_LENGTH = 32;

/**
 * The hashing pool (decision 0026). scrypt runs on libuv's thread pool (UV_THREADPOOL_SIZE,
 * 4 by default), which the rest of the process needs too: file reads and writes, and the
 * SCRAM key derivation of every new database connection. Left unbounded, a flood of
 * sign-ins filled all four threads with a queue of hashes behind them, and a job's new
 * connection waited there until its connect timeout. So at most half the threads hash
 * (2 of 4), and the other half stay free (but for a known device's hash, below): at most
 * 3 × 128 MiB of scrypt memory at once.
 */
export const HASH_CONCURRENCY = Math.max(
  1,
  Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2),
);
/**
 * Hashes that may wait in each lane for a thread. A hash takes 0.25-0.5 s on a small
 * machine, so the last of 8 waiting starts within about 2 s; more would only make people
 * wait for an answer they are better given at once: 503 BUSY with Retry-After.
 */
export const HASH_QUEUE = 8;
/** The Retry-After of a BUSY answer: about the time the queue takes to drain. */
export const HASH_BUSY_RETRY_AFTER_S = 5;

/**
 * Who waits for a hash. A browser the account signed in on before (its device cookie, the
 * rate-limit module's sign-in devices) has a lane of its own that is served first and may
 * use one thread more than the others (the third of four, so one always stays free): a
 * flood of strangers' sign-ins never keeps an owner out of their own device, nor makes them
 * wait for strangers' hashes.
 */
export type HashLane = 'known-device' | 'other';

/** The threads a lane's hashes may have in use, together with the other lane's. */
const threadsFor = (lane: HashLane) =>
  lane === 'known-device' ? HASH_CONCURRENCY + 1 : HASH_CONCURRENCY;

const lanes: Record<HashLane, { admitted: number; waiting: Array<() => void> }> = {
  'known-device': { admitted: 0, waiting: [] },
  other: { admitted: 0, waiting: [] },
};
let running = 0;

/** How the pool is used right now (/metrics shows it, tests look). */
export function hashingLoad() {
  return {
    running,
    waiting: lanes['known-device'].waiting.length + lanes.other.waiting.length,
    admitted: { knownDevice: lanes['known-device'].admitted, other: lanes.other.admitted },
  };
}

/** Waits for one of the pool's threads, known devices first, runs `work` on it. */
async function onPoolThread<T>(lane: HashLane, work: () => Promise<T>): Promise<T> {
  if (running < threadsFor(lane)) running += 1;
  else await new Promise<void>((resolve) => lanes[lane].waiting.push(resolve));
  try {
    return await work();
  } finally {
    running -= 1;
    // The freed thread goes to the next in line that may have it, known devices first.
    for (const next of ['known-device', 'other'] as const) {
      const wake = lanes[next].waiting[0];
      if (wake && running < threadsFor(next)) {
        lanes[next].waiting.shift();
        running += 1;
        wake();
        break;
      }
    }
  }
}

/** The hashing a caller admitted to the pool may do. */
export type Hashing = {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
};

/**
 * Admits `fn` to the hashing pool, or refuses it at once with 503 BUSY (and Retry-After)
 * when its lane already has as many callers as may run and wait. Admission comes first, so
 * a caller refused here has counted and read nothing; call it before the attempt counts.
 * `fn` may do other work (database reads) before it hashes: it holds a place in the queue,
 * never a thread or a connection, while it does.
 */
export async function withHashing<T>(lane: HashLane, fn: (h: Hashing) => Promise<T>): Promise<T> {
  const l = lanes[lane];
  if (l.admitted >= threadsFor(lane) + HASH_QUEUE) {
    throw new AppError('BUSY', MSG.busy, HASH_BUSY_RETRY_AFTER_S);
  }
  l.admitted += 1;
  try {
    return await fn({
      hash: (password) => onPoolThread(lane, () => hashNow(password)),
      verify: (password, stored) => onPoolThread(lane, () => verifyNow(password, stored)),
    });
  } finally {
    l.admitted -= 1;
  }
}

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
async function hashNow(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = currentParams();
  const key = await derive(password, salt, params);
  return [
    'scrypt',
    params.N,
    params.r,
    params.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

/** Checks a password against a stored hash, whatever parameters it was made with. */
async function verifyNow(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, { N: parsed.N, r: parsed.r, p: parsed.p });
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/** A new password's hash, on the hashing pool (503 BUSY when its queue is full). */
export function hashPassword(password: string): Promise<string> {
  return withHashing('other', (h) => h.hash(password));
}

/** Checks a password on the hashing pool (503 BUSY when its queue is full). */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return withHashing('other', (h) => h.verify(password, stored));
}

/**
 * True when a stored hash was made with weaker parameters than today's: after a successful
 * sign-in, the password is hashed again with the current ones.
 */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  const params = currentParams();
  return (
    !parsed ||
    parsed.N < params.N ||
    parsed.r < params.r ||
    parsed.p < params.p ||
    parsed.hash.length < KEY_LENGTH
  );
}

/** A hash of nothing, verified against when the account does not exist, so timing says nothing. */
export const DUMMY_PASSWORD_HASH = await hashPassword(randomBytes(16).toString('hex'));

/**
 * The rule every new password meets, wherever it is set (sign-up, reset, change, the link
 * after an unfreeze): long enough and not guessable, also from the e-mail. A 400 says why.
 */
export async function assertStrongPassword(password: string, email: string): Promise<void> {
  const weakness = await passwordWeakness(password, passwordUserInputs(email));
  if (weakness) throw new AppError('VALIDATION_FAILED', weakness);
}
