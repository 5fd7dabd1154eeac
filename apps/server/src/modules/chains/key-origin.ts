/**
 * BTC_KEY_ORIGIN: where the operator's account key sits under their master key, so payout
 * PSBTs carry full BIP-32 derivations a hardware wallet or Bitcoin Core recognises.
 */

/** The account key's origin: the master key's fingerprint and the path to the account. */
export type KeyOrigin = { fingerprint: number; path: number[] };

const HARDENED = 0x80000000;

/**
 * Reads a key origin as wallets write it: `d34db33f/84'/1'/0'` (or `84h`, optionally in
 * brackets or with `m/` after the fingerprint): the master key's fingerprint and the path
 * to the account key, three steps since the account key is at depth 3.
 */
export function parseKeyOrigin(value: string): KeyOrigin {
  const text = value.trim().replace(/^\[(.*)\]$/, '$1');
  const match = /^([0-9a-fA-F]{8})((?:\/[^/]+)*)$/.exec(
    text.replace(/^([0-9a-fA-F]{8})\/m\//, '$1/'),
  );
  if (!match) {
    throw new Error(
      `The key origin "${value}" is not a master fingerprint (8 hex digits) and a path, e.g. d34db33f/84'/0'/0'`,
    );
  }
  const fingerprint = Number.parseInt(match[1] ?? '', 16);
  const steps = (match[2] ?? '').split('/').slice(1);
  const path = steps.map((step) => {
    const parsed = /^(\d{1,10})(['hH]?)$/.exec(step);
    const index = parsed ? Number(parsed[1]) : Number.NaN;
    if (!parsed || index >= HARDENED) {
      throw new Error(
        `The key origin "${value}" has the step "${step}": a step is a number below 2^31, hardened with ' or h`,
      );
    }
    return parsed[2] ? index + HARDENED : index;
  });
  if (path.length !== 3) {
    throw new Error(
      `The key origin "${value}" has ${path.length} path steps; the account key is at depth 3, e.g. d34db33f/84'/0'/0'`,
    );
  }
  return { fingerprint, path };
}
