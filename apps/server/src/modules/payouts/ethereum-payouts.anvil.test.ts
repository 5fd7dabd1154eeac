import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type Anvil, startAnvil } from '@server-test/fixtures/ethereum/anvil';
import { type TestChain, testChain } from '@server-test/fixtures/ethereum/test-chain';
import { type Address, erc20Abi, type Hash, type Hex, hexToBigInt, parseEther } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildEthereumEntry,
  estimatePayoutGas,
  isNonceUsed,
  readEthereumFees,
} from './ethereum-payout-build';
import { checkSignedEthereum } from './ethereum-payout-check';
import { signEthereumFile } from './ethereum-payout-sign';
import {
  type EthAssetId,
  type EthPayoutEntry,
  type EthPayoutFile,
  PAYOUT_DERIVATION_PATH,
  payoutAddressOf,
} from './ethereum-payout-tx';

/**
 * Ethereum payouts on a real node (anvil): Coffer builds the transactions from the node's
 * nonce, fees, gas and chain id; they are signed offline (by Coffer's signer, and by an
 * independent one), checked, broadcast and mined, and the recipients hold exactly the
 * amounts. A transaction dropped from the pool is sent again as the same bytes; a nonce
 * taken by another transaction is seen as used and the payout is refused by the node.
 */

// The operator's phrase exists only in this test; Coffer is given the account's xpub.
const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const XPUB = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive(
  "m/44'/60'/0'",
).publicExtendedKey;
const PAYOUT = payoutAddressOf(HDKey.fromExtendedKey(XPUB));
const CAP_GWEI = 100;

let anvil: Anvil;
let chain: TestChain;
let usdt: Address;

beforeAll(async () => {
  anvil = await startAnvil();
  chain = testChain(anvil);
  usdt = await chain.deployToken(6);
  // The operator funds the payout address, as they would from an exchange or cold wallet.
  await chain.sendEth(PAYOUT, parseEther('10'));
  await chain.sendToken(usdt, PAYOUT, 1_000_000_000n);
  await anvil.mine();
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
});

/** A fresh address nobody has paid: its balance afterwards is exactly what a payout sent. */
function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

async function ethOf(address: Address): Promise<bigint> {
  return chain.client.getBalance({ address, blockTag: 'latest' });
}

async function usdtOf(address: Address): Promise<bigint> {
  return chain.client.readContract({
    address: usdt,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
    blockTag: 'latest',
  });
}

/** What the service does for a batch: nonces in order from the pending count, node fees. */
async function buildFile(
  payouts: Array<{ assetId: EthAssetId; recipient: Address; amount: bigint }>,
): Promise<EthPayoutFile> {
  const fees = await readEthereumFees(chain.client, CAP_GWEI);
  const chainId = await chain.client.getChainId();
  let nonce = await chain.client.getTransactionCount({ address: PAYOUT, blockTag: 'pending' });
  const entries: EthPayoutEntry[] = [];
  for (const [i, p] of payouts.entries()) {
    const gas = await estimatePayoutGas(chain.client, { ...p, from: PAYOUT, usdtContract: usdt });
    entries.push(
      buildEthereumEntry({
        ...p,
        payoutId: `payout-${i}`,
        usdtContract: usdt,
        from: PAYOUT,
        nonce: nonce++,
        gas,
        fees,
        chainId,
      }),
    );
  }
  return { kind: 'coffer-ethereum-payouts', version: 1, batchId: 'batch', entries };
}

async function send(raw: Hex): Promise<Hash> {
  return anvil.rpc<Hash>('eth_sendRawTransaction', [raw]);
}

/** The ETH a mined transaction cost its sender: gas used times the price actually paid. */
async function feeOf(hash: Hash): Promise<bigint> {
  const receipt = await chain.client.getTransactionReceipt({ hash });
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

describe('fees and gas from the node', () => {
  it('offers twice the base fee plus the node’s tip, and refuses above max_fee_per_gas_eth', async () => {
    const block = await chain.client.getBlock({ blockTag: 'latest' });
    const tip = hexToBigInt(await chain.client.request({ method: 'eth_maxPriorityFeePerGas' }));
    expect(await readEthereumFees(chain.client, CAP_GWEI)).toEqual({
      maxFeePerGas: 2n * (block.baseFeePerGas ?? 0n) + tip,
      maxPriorityFeePerGas: tip,
    });
    // anvil's tip alone (1 gwei) is above a cap of 0.5 gwei.
    await expect(readEthereumFees(chain.client, 0.5)).rejects.toThrow(
      /above the cap max_fee_per_gas_eth of 0.5 gwei/,
    );
  });

  it('estimates a token transfer from the payout address, and refuses one it cannot pay', async () => {
    const gas = await estimatePayoutGas(chain.client, {
      from: PAYOUT,
      assetId: 'USDT-ERC20',
      recipient: freshAddress(),
      amount: 1_000_000n,
      usdtContract: usdt,
    });
    expect(gas).toBeGreaterThan(21_000n);
    // More tokens than the payout address holds: the transfer would revert, so no estimate.
    await expect(
      estimatePayoutGas(chain.client, {
        from: PAYOUT,
        assetId: 'USDT-ERC20',
        recipient: freshAddress(),
        amount: 10n ** 15n,
        usdtContract: usdt,
      }),
    ).rejects.toThrow();
  });
});

describe('payouts broadcast and mined', () => {
  it('(a) signed by Coffer’s offline signer: checked, sent, mined, recipients paid exactly', async () => {
    const [alice, bob] = [freshAddress(), freshAddress()];
    const pending = await chain.client.getTransactionCount({
      address: PAYOUT,
      blockTag: 'pending',
    });
    const file = await buildFile([
      { assetId: 'ETH', recipient: alice, amount: 123_456_789_000_000_000n },
      { assetId: 'USDT-ERC20', recipient: bob, amount: 25_500_000n },
    ]);
    expect(file.entries.map((e) => e.nonce)).toEqual([pending, pending + 1]);
    expect(file.entries.map((e) => e.from)).toEqual([PAYOUT, PAYOUT]);
    const [ethBefore, usdtBefore] = [await ethOf(PAYOUT), await usdtOf(PAYOUT)];

    const signed = signEthereumFile(file, MNEMONIC);
    const hashes: Hash[] = [];
    for (const entry of signed.entries) {
      const { hash, raw } = await checkSignedEthereum(entry, entry.signed as Hex, PAYOUT);
      expect(await send(raw)).toBe(hash);
      hashes.push(hash);
    }
    await anvil.mine();

    for (const [i, hash] of hashes.entries()) {
      const receipt = await chain.client.getTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      expect(receipt.from).toBe(PAYOUT.toLowerCase());
      expect(receipt.effectiveGasPrice).toBeLessThanOrEqual(
        BigInt(signed.entries[i]?.maxFeePerGas ?? 0),
      );
      expect(receipt.gasUsed).toBeLessThanOrEqual(BigInt(signed.entries[i]?.gas ?? 0));
    }
    expect(await ethOf(alice)).toBe(123_456_789_000_000_000n);
    expect(await usdtOf(bob)).toBe(25_500_000n);
    expect(await usdtOf(alice)).toBe(0n);
    expect(await ethOf(bob)).toBe(0n);

    // The network fee each payout cost, as the receipt gives it: gasUsed × effectiveGasPrice.
    const [ethFee, usdtFee] = [await feeOf(hashes[0] as Hash), await feeOf(hashes[1] as Hash)];
    expect(ethFee).toBe(
      21_000n *
        (await chain.client.getTransactionReceipt({ hash: hashes[0] as Hash })).effectiveGasPrice,
    );
    expect(usdtFee).toBeGreaterThan(ethFee);
    // The payout address paid the amounts and those fees, nothing else.
    expect(await ethOf(PAYOUT)).toBe(ethBefore - 123_456_789_000_000_000n - ethFee - usdtFee);
    expect(await usdtOf(PAYOUT)).toBe(usdtBefore - 25_500_000n);
  });

  it('(b) signed by an independent signer (viem, the same phrase and path): checks and pays', async () => {
    const [carol, dave] = [freshAddress(), freshAddress()];
    const file = await buildFile([
      { assetId: 'ETH', recipient: carol, amount: 1n },
      { assetId: 'USDT-ERC20', recipient: dave, amount: 1_000_000n },
    ]);
    const signer = mnemonicToAccount(MNEMONIC, { path: PAYOUT_DERIVATION_PATH });
    expect(signer.address).toBe(PAYOUT);
    const hashes: Hash[] = [];
    for (const entry of file.entries) {
      const raw = await signer.signTransaction({
        type: 'eip1559',
        chainId: entry.chainId,
        nonce: entry.nonce,
        to: entry.to as Address,
        value: BigInt(entry.value),
        data: entry.data,
        gas: BigInt(entry.gas),
        maxFeePerGas: BigInt(entry.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
      });
      const checked = await checkSignedEthereum(entry, raw, PAYOUT);
      hashes.push(await send(checked.raw));
    }
    await anvil.mine();
    for (const hash of hashes) {
      expect((await chain.client.getTransactionReceipt({ hash })).status).toBe('success');
    }
    expect(await ethOf(carol)).toBe(1n);
    expect(await usdtOf(dave)).toBe(1_000_000n);
  });

  it('(c) a transaction dropped from the pool is sent again as the same bytes and confirms', async () => {
    const erin = freshAddress();
    const file = signEthereumFile(
      await buildFile([{ assetId: 'ETH', recipient: erin, amount: parseEther('0.5') }]),
      MNEMONIC,
    );
    const entry = file.entries[0] as EthPayoutEntry;
    const { hash, raw } = await checkSignedEthereum(entry, entry.signed as Hex, PAYOUT);
    await send(raw);
    expect(await anvil.rpc('eth_getTransactionByHash', [hash])).toMatchObject({ hash });

    await anvil.rpc('anvil_dropTransaction', [hash]);
    // Gone: the node knows nothing of it, and mining does not pay Erin.
    expect(await anvil.rpc('eth_getTransactionByHash', [hash])).toBeNull();
    await anvil.mine();
    expect(await ethOf(erin)).toBe(0n);
    expect(await isNonceUsed(chain.client, PAYOUT, entry.nonce)).toBe(false);

    // The same signed bytes, sent again: nothing to sign anew, same hash.
    expect(await send(raw)).toBe(hash);
    await anvil.mine();
    const receipt = await chain.client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(await ethOf(erin)).toBe(parseEther('0.5'));
    expect(await isNonceUsed(chain.client, PAYOUT, entry.nonce)).toBe(true);
  });

  it('(d) a nonce taken by another transaction: seen as used, and the payout is refused as nonce too low', async () => {
    const frank = freshAddress();
    const file = signEthereumFile(
      await buildFile([{ assetId: 'ETH', recipient: frank, amount: parseEther('0.25') }]),
      MNEMONIC,
    );
    const entry = file.entries[0] as EthPayoutEntry;
    const { raw } = await checkSignedEthereum(entry, entry.signed as Hex, PAYOUT);

    // The operator's key spends the same nonce elsewhere (another wallet holding the phrase).
    const signer = mnemonicToAccount(MNEMONIC, { path: PAYOUT_DERIVATION_PATH });
    const elsewhere = freshAddress();
    const other = await signer.signTransaction({
      type: 'eip1559',
      chainId: entry.chainId,
      nonce: entry.nonce,
      to: elsewhere,
      value: 7n,
      gas: 21_000n,
      maxFeePerGas: BigInt(entry.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
    });
    await send(other);
    // Waiting in the pool is not used: only a mined transaction takes the nonce.
    expect(await isNonceUsed(chain.client, PAYOUT, entry.nonce)).toBe(false);
    await anvil.mine();
    expect(await ethOf(elsewhere)).toBe(7n);
    expect(await isNonceUsed(chain.client, PAYOUT, entry.nonce)).toBe(true);
    expect(await isNonceUsed(chain.client, PAYOUT, entry.nonce + 1)).toBe(false);

    await expect(send(raw)).rejects.toThrow(/nonce too low/i);
    await anvil.mine();
    expect(await ethOf(frank)).toBe(0n);
  });
});
