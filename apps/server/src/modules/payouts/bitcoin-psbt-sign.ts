import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { Transaction } from '@scure/btc-signer';
import { equalBytes, TX_OPTS } from './bitcoin-psbt';

/** Signing a Bitcoin payout PSBT: the offline CLI and tests only (the server never holds a private key). */

/**
 * Signs every P2WPKH input of a Coffer PSBT with keys from a BIP-39 mnemonic and finalizes
 * it. A derivation whose fingerprint is the master key's is followed from the master; any
 * other is taken as relative to `accountPath` (a batch built without a key origin carries
 * the account key's fingerprint and account-relative paths). Throws when an input has no
 * key this mnemonic derives.
 */
export function signBitcoinPsbt(
  psbtBase64: string,
  mnemonic: string,
  opts: { accountPath: string; passphrase?: string },
): string {
  const phrase = mnemonic.trim().split(/\s+/).join(' ');
  if (!validateMnemonic(phrase, wordlist)) {
    throw new Error('The mnemonic is not a valid BIP-39 English phrase');
  }
  const master = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase, opts.passphrase ?? ''));
  const account = master.derive(opts.accountPath);
  const tx = Transaction.fromPSBT(base64.decode(psbtBase64.trim()), TX_OPTS);
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    let signer: Uint8Array | null = null;
    for (const [publicKey, { fingerprint, path }] of input.bip32Derivation ?? []) {
      let node = fingerprint === master.fingerprint ? master : account;
      for (const step of path) node = node.deriveChild(step);
      if (node.publicKey && node.privateKey && equalBytes(node.publicKey, publicKey)) {
        signer = node.privateKey;
        break;
      }
    }
    if (!signer) {
      throw new Error(`Input ${i} has no key this mnemonic derives (check the account path)`);
    }
    tx.signIdx(signer, i);
    tx.finalizeIdx(i);
  }
  return base64.encode(tx.toPSBT(0));
}
