import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { loadConfig } from '@server/config';
import { StartupError } from '@server/lib/startup-error';
import { describe, expect, it } from 'vitest';
import {
  configuredChains,
  ensureChainChecked,
  loadChainConfig,
  verifyChainConfig,
} from './chain-config';

const root = HDKey.fromMasterSeed(
  mnemonicToSeedSync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  ),
);
const base58check = createBase58check(sha256);
const ETH_XPUB = root.derive("m/44'/60'/0'").publicExtendedKey;
const TRON_XPUB = root.derive("m/44'/195'/0'").publicExtendedKey;
const BTC_XPUB = root.derive("m/84'/0'/0'").publicExtendedKey;
const BTC_XPRV = root.derive("m/84'/0'/0'").privateExtendedKey;

function withVersion(key: string, version: number): string {
  const bytes = base58check.decode(key);
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(0, version);
  return base58check.encode(bytes);
}

const ETH = { ETH_RPC_URL: 'http://127.0.0.1:8545', ETH_XPUB };
const TRON = { TRON_API_URL: 'http://127.0.0.1:8090', TRON_XPUB };
const BTC = { BTC_RPC_URL: 'http://u:p@127.0.0.1:18443', BTC_XPUB };

/** The message loadChainConfig stopped with; fails the test when it did not stop. */
function stopMessage(env: Record<string, string>): string {
  try {
    loadChainConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(StartupError);
    return (err as Error).message;
  }
  throw new Error('loadChainConfig accepted the configuration');
}

describe('loadChainConfig', () => {
  it('leaves every chain unconfigured when nothing is set (today’s behaviour)', () => {
    const configs = loadChainConfig({});
    expect(configs).toMatchObject({
      bitcoin: null,
      ethereum: null,
      tron: null,
      bitcoinNetwork: 'mainnet',
      warnings: [],
    });
    expect(configuredChains(configs)).toEqual([]);
  });

  it('reads each chain with its defaults: mainnet USDT contracts, the mainnet format', () => {
    const configs = loadChainConfig({ ...ETH, ...TRON, ...BTC });
    expect(configuredChains(configs).map((c) => c.chain)).toEqual(['bitcoin', 'ethereum', 'tron']);
    expect(configs.ethereum).toMatchObject({
      rpcUrl: 'http://127.0.0.1:8545',
      usdtContract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
    });
    expect(configs.tron?.usdtContract).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(configs.bitcoin?.network).toBe('mainnet');
    expect(configs.ethereum?.account.privateKey).toBeNull();
    // The keys as given, for the admin screen: public keys only.
    expect(configs.bitcoin?.xpub).toBe(BTC_XPUB);
    expect(configs.tron?.xpub).toBe(TRON_XPUB);
  });

  it('takes the operator’s own contracts and network', () => {
    const configs = loadChainConfig({
      ...ETH,
      USDT_ERC20_CONTRACT: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      ...TRON,
      USDT_TRC20_CONTRACT: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      ...BTC,
      BTC_XPUB: withVersion(root.derive("m/84'/1'/0'").publicExtendedKey, 0x045f1cf6),
      BTC_NETWORK: 'regtest',
    });
    expect(configs.ethereum?.usdtContract).toBe('0x5fbdb2315678afecb367f032d93f642f64180aa3');
    expect(configs.tron?.usdtContract).toBe('TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf');
    expect(configs.bitcoin?.network).toBe('regtest');
    expect(configs.bitcoinNetwork).toBe('regtest');
    expect(configs.warnings).toEqual([]);
  });

  it('warns, and goes on, when a mainnet key is used on a test network', () => {
    const configs = loadChainConfig({ ...BTC, BTC_NETWORK: 'regtest' });
    expect(configs.bitcoin?.network).toBe('regtest');
    expect(configs.warnings).toEqual([
      'BTC_XPUB is a mainnet key (xpub) but BTC_NETWORK is regtest: addresses are derived from the key and written in the regtest format',
    ]);
  });

  it('stops start-up naming the variable that does not parse, never echoing a key', () => {
    expect(stopMessage({ ...ETH, ETH_XPUB: 'xpub-garbage' })).toBe(
      'ETH_XPUB is not an extended public key (an xpub): it does not decode or its checksum is wrong',
    );
    // A zpub is a Bitcoin serialisation; Ethereum and TRON take the plain xpub.
    expect(stopMessage({ ...TRON, TRON_XPUB: withVersion(TRON_XPUB, 0x04b24746) })).toBe(
      'TRON_XPUB is not an extended public key of the accepted kind (an xpub)',
    );
    const privateKey = stopMessage({ ...BTC, BTC_XPUB: BTC_XPRV });
    expect(privateKey).toBe(
      "BTC_XPUB is a private key: give the account's extended public key (an xpub, zpub, tpub or vpub); a private key never belongs on the server",
    );
    expect(privateKey).not.toContain(BTC_XPRV.slice(4, 20));
    expect(stopMessage({ ...BTC, BTC_XPUB: withVersion(BTC_XPUB, 0x049d7cb2) })).toBe(
      'BTC_XPUB is a ypub (nested segwit); give the BIP-84 account key as an xpub, zpub, tpub or vpub',
    );
    expect(stopMessage({ ...ETH, ETH_XPUB: root.publicExtendedKey })).toBe(
      "ETH_XPUB must be the account-level key (depth 3, e.g. m/44'/60'/0'), but this key is at depth 0",
    );
    expect(stopMessage({ BTC_NETWORK: 'signet' })).toBe(
      'BTC_NETWORK must be mainnet, testnet or regtest, got "signet"',
    );
    expect(stopMessage({ ...BTC, BTC_RPC_URL: 'ftp://u:secret@node' })).toBe(
      'BTC_RPC_URL must be the http:// or https:// address of a Bitcoin Core JSON-RPC server',
    );
    expect(stopMessage({ ...ETH, USDT_ERC20_CONTRACT: '0x1234' })).toBe(
      'USDT_ERC20_CONTRACT must be a contract address, 0x and 40 hex digits, got "0x1234"',
    );
    expect(stopMessage({ ...TRON, USDT_TRC20_CONTRACT: 'T123' })).toBe(
      'USDT_TRC20_CONTRACT must be a TRON contract address (T and 33 characters), got "T123"',
    );
  });

  it('stops on a half-done chain: a node without a key, a key without a node, a lone contract', () => {
    expect(stopMessage({ ETH_RPC_URL: 'http://127.0.0.1:8545' })).toBe(
      'ETH_XPUB is not set, but ETH_RPC_URL is: a chain is watched with both (or neither)',
    );
    expect(stopMessage({ TRON_XPUB })).toBe(
      'TRON_API_URL is not set, but TRON_XPUB is: a chain is watched with both (or neither)',
    );
    expect(stopMessage({ USDT_ERC20_CONTRACT: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })).toBe(
      'USDT_ERC20_CONTRACT is set but ETH_RPC_URL and ETH_XPUB are not',
    );
  });

  it('is part of the server’s configuration: a bad value stops loadConfig', () => {
    const env = { DATA_DIR: '/nonexistent-coffer-test', COFFER_SECRET_KEY: 'a'.repeat(64) };
    expect(loadConfig(env).chains.ethereum).toBeNull();
    expect(loadConfig({ ...env, ...ETH }).chains.ethereum?.rpcUrl).toBe('http://127.0.0.1:8545');
    expect(() => loadConfig({ ...env, ETH_RPC_URL: 'http://x', ETH_XPUB: 'nope' })).toThrow(
      /^ETH_XPUB is not an extended public key/,
    );
    expect(loadConfig({ ...env, ...BTC, BTC_NETWORK: 'testnet' }).warnings).toContain(
      'BTC_XPUB is a mainnet key (xpub) but BTC_NETWORK is testnet: addresses are derived from the key and written in the testnet format',
    );
  });
});

describe('verifyChainConfig', () => {
  it('runs every adapter’s start-up check at once and stops when one fails', async () => {
    const ran: string[] = [];
    const adapter = (chain: 'bitcoin' | 'ethereum', fail: boolean | 'down') => ({
      chain,
      assets: [],
      matchKeyOf: () => null,
      tip: async () => 0,
      blockAt: async () => null,
      transfersIn: async () => [],
      verifyConfig: async () => {
        ran.push(chain);
        if (fail === 'down') throw new Error('Ethereum node: eth_call failed: fetch failed');
        if (fail) throw new StartupError('USDT_ERC20_CONTRACT has 18 decimals, USDT-ERC20 has 6');
      },
    });
    await verifyChainConfig([adapter('bitcoin', false)]);
    expect(ran).toEqual(['bitcoin']);
    await expect(
      verifyChainConfig([adapter('ethereum', true), adapter('bitcoin', false)]),
    ).rejects.toThrow('USDT_ERC20_CONTRACT has 18 decimals, USDT-ERC20 has 6');
    // Side by side (a slow node never adds to another's wait): the other chain was asked too.
    expect(ran).toEqual(['bitcoin', 'ethereum', 'bitcoin']);
    // A node that does not answer at start: reported, the next chain still checked, no stop.
    const down: string[] = [];
    await verifyChainConfig([adapter('ethereum', 'down'), adapter('bitcoin', false)], (chain) =>
      down.push(chain),
    );
    expect(down).toEqual(['ethereum']);
    expect(ran).toEqual(['bitcoin', 'ethereum', 'bitcoin', 'ethereum', 'bitcoin']);
  });

  it('gives a node that hangs a few seconds at most; its chain is checked again before each poll', async () => {
    let answer: 'hang' | 'ok' | 'wrong' = 'hang';
    let asked = 0;
    const hanging = {
      chain: 'ethereum' as const,
      assets: [],
      matchKeyOf: () => null,
      tip: async () => 0,
      blockAt: async () => null,
      transfersIn: async () => [],
      verifyConfig: () => {
        asked++;
        if (answer === 'ok') return Promise.resolve();
        if (answer === 'wrong')
          return Promise.reject(new StartupError('USDT_ERC20_CONTRACT: 0xabc has 18 decimals'));
        return new Promise<void>(() => {});
      },
    };
    const down: string[] = [];
    const started = Date.now();
    await verifyChainConfig([hanging], (chain, err) => down.push(`${chain}: ${String(err)}`), {
      timeoutMs: 200,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(down).toEqual([
      'ethereum: Error: ETH_RPC_URL: the node did not answer the start-up check within 0.2 s',
    ]);
    // The watcher's gate asks again, and fails the poll while the node hangs.
    await expect(ensureChainChecked(hanging, 200)).rejects.toThrow(
      'ETH_RPC_URL: the node did not answer the start-up check within 0.2 s',
    );
    // The node answers with a contract that does not fit: the poll fails with the reason.
    answer = 'wrong';
    await expect(ensureChainChecked(hanging, 200)).rejects.toThrow(
      'USDT_ERC20_CONTRACT: 0xabc has 18 decimals',
    );
    answer = 'ok';
    await ensureChainChecked(hanging, 200);
    // Passed once: not asked before every poll from then on.
    answer = 'hang';
    await ensureChainChecked(hanging, 200);
    expect(asked).toBe(4);
  });
});
