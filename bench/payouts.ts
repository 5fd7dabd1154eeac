/**
 * `BENCH_ONLY=payouts npm run bench`: building and checking a 500-payout Bitcoin batch and
 * 500 Ethereum payouts, as Coffer does on every build and every submitted file: time, the
 * PSBT's size, and the memory it takes. No node: the figures are Coffer's own work.
 */
import { createHash } from 'node:crypto';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { getAddress } from 'viem';
import { bitcoinP2wpkh, parseAccountKey } from '../apps/server/src/modules/chains/derive';
import { buildBitcoinBatch } from '../apps/server/src/modules/payouts/bitcoin-psbt-build';
import { checkSignedBitcoin } from '../apps/server/src/modules/payouts/bitcoin-psbt-check';
import { signBitcoinPsbt } from '../apps/server/src/modules/payouts/bitcoin-psbt-sign';
import { buildEthereumEntry } from '../apps/server/src/modules/payouts/ethereum-payout-build';
import { checkSignedEthereum } from '../apps/server/src/modules/payouts/ethereum-payout-check';
import { signEthereumFile } from '../apps/server/src/modules/payouts/ethereum-payout-sign';
import {
  type EthPayoutFile,
  payoutAddressOf,
} from '../apps/server/src/modules/payouts/ethereum-payout-tx';

const PAYOUTS = 500;
const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const seed = mnemonicToSeedSync(MNEMONIC);
const btcAccount = HDKey.fromMasterSeed(seed).derive("m/84'/1'/0'");
// The account key as Coffer reads ETH_XPUB (its own copy of the key library).
const ethAccount = parseAccountKey(
  'ETH_XPUB',
  HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'").publicExtendedKey,
  'plain',
).account;

function keyAt(change: 0 | 1, index: number) {
  const key = btcAccount.deriveChild(change).deriveChild(index).publicKey;
  if (!key) throw new Error('no key');
  return { publicKey: hex.encode(key), script: bitcoinP2wpkh(key, 'regtest').script };
}

function timed<T>(act: () => T): { value: T; ms: number; heapMb: number } {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const value = act();
  const ms = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  return { value, ms, heapMb };
}

async function timedAsync<T>(act: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await act();
  return { value, ms: performance.now() - started };
}

// Bitcoin: 250 deposits pay 500 payouts (two inputs' worth each side).
const spendable = Array.from({ length: 250 }, (_, i) => ({
  txid: (i + 1).toString(16).padStart(64, '0'),
  vout: 0,
  amount: 10_000_000n,
  change: 0 as const,
  index: i,
  ...keyAt(0, i),
}));
const payouts = Array.from({ length: PAYOUTS }, (_, i) => ({
  id: `p${i}`,
  script: keyAt(0, 10_000 + i).script,
  amount: 4_000_000n,
}));
const build = timed(() =>
  buildBitcoinBatch({
    spendable,
    payouts,
    feeRate: 5,
    change: { index: 0, ...keyAt(1, 0) },
    accountFingerprint: btcAccount.fingerprint,
    keyOrigin: null,
  }),
);
const built = build.value;
if (!built) throw new Error('the batch did not build');
const signed = timed(() => signBitcoinPsbt(built.psbt, MNEMONIC, { accountPath: "m/84'/1'/0'" }));
const check = timed(() => checkSignedBitcoin(built.psbt, signed.value));
console.log(
  `payouts: Bitcoin batch of ${built.payouts.length} payouts from ${built.inputs.length} inputs: build ${build.ms.toFixed(0)} ms (+${build.heapMb.toFixed(1)} MB heap), unsigned PSBT ${(built.psbt.length / 1024).toFixed(0)} KiB base64, transaction ${built.vsize} vB; check of the signed PSBT (${(signed.value.length / 1024).toFixed(0)} KiB) ${check.ms.toFixed(0)} ms (+${check.heapMb.toFixed(1)} MB heap); offline signing ${signed.ms.toFixed(0)} ms`,
);

// Ethereum: 500 payouts, one transaction each, to 500 addresses as customers type them
// (EIP-55). Made before the clock starts: deriving each from a key, as this benchmark once
// did inside the timed build, cost about 3 ms an address and was most of the figure.
const from = payoutAddressOf(ethAccount);
const fees = { maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
const recipients = Array.from({ length: PAYOUTS }, (_, i) =>
  getAddress(`0x${createHash('sha256').update(`recipient ${i}`).digest('hex').slice(0, 40)}`),
);
const entries = timed(() =>
  Array.from({ length: PAYOUTS }, (_, i) =>
    buildEthereumEntry({
      payoutId: `p${i}`,
      assetId: i % 2 ? 'ETH' : 'USDT-ERC20',
      recipient: recipients[i] ?? '',
      amount: 1_000_000n + BigInt(i),
      usdtContract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
      from,
      nonce: i,
      gas: i % 2 ? 21_000n : 65_000n,
      fees,
      chainId: 1,
    }),
  ),
);
const file: EthPayoutFile = {
  kind: 'coffer-ethereum-payouts',
  version: 1,
  batchId: 'bench',
  entries: entries.value,
};
const ethSigned = timed(() => signEthereumFile(file, MNEMONIC));
const ethCheck = await timedAsync(async () => {
  for (const [k, e] of ethSigned.value.entries.entries()) {
    await checkSignedEthereum(entries.value[k] ?? e, e.signed as `0x${string}`, from);
  }
});
console.log(
  `payouts: ${PAYOUTS} Ethereum payouts: build ${entries.ms.toFixed(0)} ms (+${entries.heapMb.toFixed(1)} MB heap), file ${(JSON.stringify(file).length / 1024).toFixed(0)} KiB; check of the signed file ${ethCheck.ms.toFixed(0)} ms (${(ethCheck.ms / PAYOUTS).toFixed(2)} ms each); offline signing ${ethSigned.ms.toFixed(0)} ms`,
);
console.log(`payouts: peak RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
