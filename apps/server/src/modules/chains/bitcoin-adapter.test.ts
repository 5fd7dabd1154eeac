import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { p2pkh, p2wpkh } from '@scure/btc-signer';
import { StartupError } from '@server/lib/startup-error';
import { type LitecoinNode, startLitecoinNode, WALLET } from '@server-test/litecoin-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BitcoinAdapter } from './bitcoin-adapter';
import type { WatchedLookup } from './chain-adapter';
import { bitcoinScriptOf } from './derive';
import { watchingOnly } from './fake-chain';

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };

describe('matchKeyOf: an address as the output script it pays, under BTC_NETWORK', () => {
  const mainnet = new BitcoinAdapter({ rpcUrl: 'http://127.0.0.1:1', network: 'mainnet' });
  const testnet = new BitcoinAdapter({ rpcUrl: 'http://127.0.0.1:1', network: 'testnet' });
  const regtest = new BitcoinAdapter({ rpcUrl: 'http://127.0.0.1:1', network: 'regtest' });

  it('reads bech32, bech32m and base58 addresses of the configured network', () => {
    // BIP-173's P2WPKH example, in either case.
    expect(mainnet.matchKeyOf('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(
      '0014751e76e8199196d454941c45d1b3a323f1433bd6',
    );
    expect(mainnet.matchKeyOf('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
      '0014751e76e8199196d454941c45d1b3a323f1433bd6',
    );
    // BIP-350's P2TR example.
    expect(
      mainnet.matchKeyOf('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'),
    ).toBe('512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
    // The genesis block's P2PKH address, and a P2SH address.
    expect(mainnet.matchKeyOf('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(
      '76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac',
    );
    expect(mainnet.matchKeyOf('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(
      'a914b472a266d0bd89c13706a4132ccfb16f7c3b9fcb87',
    );
    expect(testnet.matchKeyOf('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBe(
      '0014751e76e8199196d454941c45d1b3a323f1433bd6',
    );
    expect(regtest.matchKeyOf('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080')).toBe(
      '0014751e76e8199196d454941c45d1b3a323f1433bd6',
    );
  });

  it('gives null for another network, another coin, a bad checksum or no address', () => {
    expect(mainnet.matchKeyOf('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBeNull();
    expect(regtest.matchKeyOf('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBeNull();
    expect(testnet.matchKeyOf('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBeNull();
    expect(regtest.matchKeyOf('rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k5ywqrm')).toBeNull();
    expect(mainnet.matchKeyOf('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toBeNull();
    expect(mainnet.matchKeyOf('0x52908400098527886E0F7030069857D2E4169EE7')).toBeNull();
    expect(mainnet.matchKeyOf('')).toBeNull();
  });
  it("agrees with the derivation module's address-to-script reading", () => {
    const samples = {
      mainnet: [
        'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
        'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
        '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
        '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
        'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
        'not an address',
      ],
      testnet: [
        'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
        'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
        '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc',
        '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      ],
      regtest: [
        'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
        'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
        'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      ],
    } as const;
    const adapters = { mainnet, testnet, regtest };
    for (const network of ['mainnet', 'testnet', 'regtest'] as const) {
      for (const address of samples[network]) {
        expect([network, address, adapters[network].matchKeyOf(address)]).toEqual([
          network,
          address,
          bitcoinScriptOf(address, network),
        ]);
      }
    }
  });
});

describe('BitcoinAdapter on a Litecoin Core regtest node', () => {
  let node: LitecoinNode;
  let adapter: BitcoinAdapter;
  // A BIP-84 account on a test network (m/84'/1'/0'), as the operator's BTC_XPUB gives it.
  const account = HDKey.fromMasterSeed(
    mnemonicToSeedSync(
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    ),
  ).derive("m/84'/1'/0'");
  const key0 = account.deriveChild(0).deriveChild(0).publicKey;
  const key1 = account.deriveChild(0).deriveChild(1).publicKey;
  if (!key0 || !key1) throw new Error('derivation gave no public key');
  const derived = p2wpkh(key0, REGTEST);
  // An admin-added legacy address: base58 P2PKH.
  const legacy = p2pkh(key1, REGTEST);
  let keys: Array<string | null>;
  let watched: WatchedLookup;

  /** The node's own address string for a script (rltc1… / m…), which Coffer never sees. */
  async function nodeAddressOf(script: Uint8Array): Promise<string> {
    const decoded = await node.rpc<{ address?: string; addresses?: string[] }>('decodescript', [
      hex.encode(script),
    ]);
    const address = decoded.address ?? decoded.addresses?.[0];
    if (!address) throw new Error('the node printed no address for the script');
    return address;
  }

  /** Pays `outputs` (node address → decimal amount) from the node's wallet; the txid. */
  async function pay(outputs: Record<string, string>): Promise<string> {
    const unsigned = await node.rpc<string>('createrawtransaction', [[], outputs], WALLET);
    const funded = await node.rpc<{ hex: string }>('fundrawtransaction', [unsigned], WALLET);
    const signed = await node.rpc<{ hex: string; complete: boolean }>(
      'signrawtransactionwithwallet',
      [funded.hex],
      WALLET,
    );
    expect(signed.complete).toBe(true);
    return node.rpc<string>('sendrawtransaction', [signed.hex]);
  }

  /** The output index of `script` in `txid` (still in the mempool), as the node decodes it. */
  async function voutOf(txid: string, script: Uint8Array): Promise<number> {
    const tx = await node.rpc<{ vout: { n: number; scriptPubKey: { hex: string } }[] }>(
      'getrawtransaction',
      [txid, true],
    );
    const out = tx.vout.find((o) => o.scriptPubKey.hex === hex.encode(script));
    if (!out) throw new Error('the payment has no output to the script');
    return out.n;
  }

  beforeAll(async () => {
    node = await startLitecoinNode();
    adapter = new BitcoinAdapter({ rpcUrl: node.rpcUrl, network: 'regtest' });
    // Coinbase outputs mature after 100 blocks: 101 give one spendable reward.
    await node.mine(101);
    keys = [derived.address, legacy.address].map((a) => adapter.matchKeyOf(a ?? ''));
    watched = watchingOnly(keys.filter((k): k is string => k !== null));
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
  });

  it("derives Coffer's own address format and matches it by script", () => {
    expect(derived.address).toMatch(/^bcrt1q/);
    expect(legacy.address).toMatch(/^[mn]/);
    expect(keys).toEqual([hex.encode(derived.script), hex.encode(legacy.script)]);
  });

  it('reads the tip and blocks by height, with parent hashes and times', async () => {
    const height = await adapter.tip();
    expect(height).toBe(await node.rpc<number>('getblockcount'));
    const block = await adapter.blockAt(height);
    const parent = await adapter.blockAt(height - 1);
    expect(block?.hash).toBe(await node.rpc<string>('getbestblockhash'));
    expect(block?.height).toBe(height);
    expect(block?.parentHash).toBe(parent?.hash);
    expect(block?.time?.getTime()).toBeGreaterThan(Date.now() - 3_600_000);
    // The genesis block has no parent; above the tip there is no block.
    expect((await adapter.blockAt(0))?.parentHash).toBe('0'.repeat(64));
    expect(await adapter.blockAt(height + 1)).toBeNull();
    await expect(adapter.blockAt(-1)).rejects.toThrow(/height/);
  });

  it('finds payments to watched scripts, whatever address the node prints, with exact satoshi', async () => {
    const derivedOnNode = await nodeAddressOf(derived.script);
    const legacyOnNode = await nodeAddressOf(legacy.script);
    // Litecoin prints its own format for the same scripts.
    expect(derivedOnNode).toMatch(/^rltc1q/);
    expect(derivedOnNode).not.toBe(derived.address);
    // 0.29 is 28999999.999999996 satoshi as a float: a float conversion would lose one.
    const txid = await pay({ [derivedOnNode]: '0.29', [legacyOnNode]: '12.34567891' });
    const unwatched = await pay({ [await node.rpc<string>('getnewaddress', [], WALLET)]: '1' });
    const derivedVout = await voutOf(txid, derived.script);
    const legacyVout = await voutOf(txid, legacy.script);
    const [blockHash] = await node.mine(1);
    const block = await adapter.blockAt(await adapter.tip());
    expect(block?.hash).toBe(blockHash);
    if (!block) throw new Error('no block');

    const found = await adapter.transfersIn(block, watched);
    expect(found.map((t) => t.txHash)).not.toContain(unwatched);
    expect(found).toHaveLength(2);
    expect(found).toEqual(
      expect.arrayContaining([
        {
          txHash: txid,
          outputIndex: derivedVout,
          matchKey: hex.encode(derived.script),
          assetId: 'BTC',
          amountMinor: 29_000_000n,
        },
        {
          txHash: txid,
          outputIndex: legacyVout,
          matchKey: hex.encode(legacy.script),
          assetId: 'BTC',
          amountMinor: 1_234_567_891n,
        },
      ]),
    );
    // Nothing watched, nothing found; a block without payments to us, nothing either.
    expect(await adapter.transfersIn(block, watchingOnly([]))).toEqual([]);
    const parent = await adapter.blockAt(block.height - 1);
    if (!parent) throw new Error('no parent');
    expect(await adapter.transfersIn(parent, watched)).toEqual([]);
  });

  it('does not count a block reward mined to a watched address', async () => {
    const [hash] = await node.rpc<string[]>('generatetoaddress', [
      1,
      await nodeAddressOf(derived.script),
    ]);
    const block = await adapter.blockAt(await adapter.tip());
    expect(block?.hash).toBe(hash);
    if (!block) throw new Error('no block');
    expect(await adapter.transfersIn(block, watched)).toEqual([]);
  });

  it('follows a fork: after invalidateblock the height has another block, and the payment moves', async () => {
    const txid = await pay({ [await nodeAddressOf(derived.script)]: '0.5' });
    await node.mine(1);
    const height = await adapter.tip();
    const before = await adapter.blockAt(height);
    if (!before) throw new Error('no block');
    expect((await adapter.transfersIn(before, watched)).map((t) => t.txHash)).toEqual([txid]);

    await node.rpc('invalidateblock', [before.hash]);
    expect(await adapter.tip()).toBe(height - 1);
    expect(await adapter.blockAt(height)).toBeNull();
    // The replacement block is empty: the payment waits in the mempool, off the chain.
    await node.rpc('generateblock', [await node.rpc<string>('getnewaddress', [], WALLET), []]);
    const after = await adapter.blockAt(height);
    expect(after?.hash).not.toBe(before.hash);
    expect(after?.parentHash).toBe(before.parentHash);
    if (!after) throw new Error('no block');
    expect(await adapter.transfersIn(after, watched)).toEqual([]);

    await node.mine(1);
    const next = await adapter.blockAt(height + 1);
    if (!next) throw new Error('no block');
    expect(next.parentHash).toBe(after.hash);
    expect(await adapter.transfersIn(next, watched)).toEqual([
      expect.objectContaining({ txHash: txid, amountMinor: 50_000_000n }),
    ]);
  });

  it('refuses wrong credentials with a clear error', async () => {
    const url = new URL(node.rpcUrl);
    url.password = 'wrong';
    const wrong = new BitcoinAdapter({ rpcUrl: url.toString(), network: 'regtest' });
    await expect(wrong.tip()).rejects.toThrow(/refused the RPC credentials/);
    await expect(wrong.blockAt(1)).rejects.toThrow(/refused the RPC credentials/);
    const block = await adapter.blockAt(1);
    if (!block) throw new Error('no block');
    await expect(wrong.transfersIn(block, watched)).rejects.toThrow(/refused the RPC credentials/);
    // At start-up, a setting the operator fixes, named.
    await expect(wrong.verifyConfig()).rejects.toBeInstanceOf(StartupError);
    await expect(wrong.verifyConfig()).rejects.toThrow(
      new StartupError('BTC_RPC_URL: the Bitcoin node refused the user and password in the URL'),
    );
  });

  it('checks at start-up that the node follows the network BTC_NETWORK names', async () => {
    await expect(adapter.verifyConfig()).resolves.toBeUndefined();
    for (const network of ['mainnet', 'testnet'] as const) {
      const other = new BitcoinAdapter({ rpcUrl: node.rpcUrl, network });
      await expect(other.verifyConfig()).rejects.toBeInstanceOf(StartupError);
      await expect(other.verifyConfig()).rejects.toThrow(
        new StartupError(
          `BTC_NETWORK is ${network} but the node at BTC_RPC_URL follows the "regtest" chain`,
        ),
      );
    }
  });

  it('throws from every method once the node is stopped, never answering "no deposits"', async () => {
    const block = await adapter.blockAt(await adapter.tip());
    if (!block) throw new Error('no block');
    await node.stop();
    expect(node.exited).toBe(true);
    await expect(adapter.tip()).rejects.toThrow(/no answer from the node/);
    await expect(adapter.blockAt(1)).rejects.toThrow(/no answer from the node/);
    await expect(adapter.transfersIn(block, watched)).rejects.toThrow(/no answer from the node/);
    // Down at start-up is not a setting to fix: it throws as any call, for the watcher's retry.
    const refused = adapter.verifyConfig();
    await expect(refused).rejects.toThrow(/no answer from the node/);
    await expect(refused).rejects.not.toBeInstanceOf(StartupError);
  });
});
