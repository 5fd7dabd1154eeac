import fs from 'node:fs';
import { signBitcoinPsbt } from './bitcoin-psbt-sign';
import { signEthereumFile } from './ethereum-payout-sign';
import type { EthPayoutFile } from './ethereum-payout-tx';
import { PayoutFileError } from './payout-file-error';

/**
 * Coffer's offline signer (`sign-payouts`): it reads an unsigned payout file and a BIP-39
 * mnemonic and writes the signed file. It opens no database and no network connection, so
 * it runs on an air-gapped machine. The mnemonic comes from a file or standard input, never
 * from an argument or the environment (both leak into process lists and shell history).
 */

/** Default account paths: BIP-84 for Bitcoin (test networks use coin type 1). */
export const DEFAULT_BITCOIN_ACCOUNT = { mainnet: "m/84'/0'/0'", test: "m/84'/1'/0'" } as const;

export type SignedPayoutFile = { kind: 'bitcoin' | 'ethereum'; content: string; count: number };

/** Signs what `unsigned` holds: a base64 PSBT or Coffer's Ethereum payouts JSON. */
export function signPayoutFile(
  unsigned: string,
  mnemonic: string,
  opts: { bitcoinAccountPath: string },
): SignedPayoutFile {
  const text = unsigned.trim();
  const words = mnemonic.trim().split(/\s+/).join(' ');
  if (text.startsWith('{')) {
    let file: EthPayoutFile;
    try {
      file = JSON.parse(text) as EthPayoutFile;
    } catch {
      throw new PayoutFileError(['the file is neither a PSBT nor Coffer’s Ethereum payouts JSON']);
    }
    if (file.kind !== 'coffer-ethereum-payouts') {
      throw new PayoutFileError(['the JSON is not Coffer’s Ethereum payouts file']);
    }
    const signed = signEthereumFile(file, words);
    return {
      kind: 'ethereum',
      content: `${JSON.stringify(signed, null, 2)}\n`,
      count: signed.entries.length,
    };
  }
  return {
    kind: 'bitcoin',
    content: `${signBitcoinPsbt(text, words, { accountPath: opts.bitcoinAccountPath })}\n`,
    count: 1,
  };
}

/** The mnemonic from `--key FILE`, or standard input when no file is named. */
export function readMnemonic(keyFile: string | undefined): string {
  const text = keyFile ? fs.readFileSync(keyFile, 'utf8') : fs.readFileSync(0, 'utf8');
  const words = text.trim();
  if (words === '')
    throw new PayoutFileError(['no mnemonic was given (--key FILE or standard input)']);
  return words;
}
