import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hash,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/**
 * Encryption at rest and keyed hashes, from one 32-byte server key. Ciphertexts carry a
 * version prefix so the key can be rotated later without guessing which key made them.
 */
export type Secrets = {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
  /** HMAC-SHA256 under a purpose label, hex: equal inputs give equal outputs, for look-ups. */
  keyedHash(purpose: string, value: string): string;
};

export function createSecrets(key: Buffer): Secrets {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    decrypt(ciphertext) {
      if (!ciphertext.startsWith('v1:')) throw new Error('Unknown ciphertext version');
      const raw = Buffer.from(ciphertext.slice(3), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    keyedHash(purpose, value) {
      return createHmac('sha256', key).update(`${purpose}\0${value}`).digest('hex');
    },
  };
}

/** What the key-check value decrypts to; any other key fails GCM's authentication. */
const KEY_CHECK_PLAINTEXT = 'coffer key check v1';

/**
 * A short name for a key that does not reveal it: the first 16 hex digits of SHA-256 over
 * the key's lowercase hex text, so an operator can tell which backed-up key file is the one
 * a database needs with `tr -d '\n' < secret.key | sha256sum | cut -c1-16`.
 */
export function keyFingerprint(key: Buffer): string {
  return sha256Hex(key.toString('hex')).slice(0, 16);
}

/** The value stored in the database that only this key can decrypt (lib/secret-key.ts). */
export function makeKeyCheck(secrets: Secrets): string {
  return secrets.encrypt(KEY_CHECK_PLAINTEXT);
}

/** Whether a stored key-check value was made with this key; false for any other key or junk. */
export function verifyKeyCheck(secrets: Secrets, value: string): boolean {
  try {
    return secrets.decrypt(value) === KEY_CHECK_PLAINTEXT;
  } catch {
    return false;
  }
}

/** A random token for cookies and links: 256 bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** One-shot: no Hash object per call (every signed-in request hashes its session token). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
