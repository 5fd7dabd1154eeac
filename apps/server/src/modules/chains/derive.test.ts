import { decodeSegwitAddress, toChecksumAddress } from '@coffer/shared';
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { loadChainConfig } from './chain-config';
import {
  bitcoinScriptOf,
  derive,
  ethereumAddressOf,
  ethereumMatchKeyOf,
  parseAccountKey,
  tronAddressFromHex,
  tronMatchKeyOf,
} from './derive';

// The test mnemonic of BIP-84 and most wallets' published vectors. Only the tests hold a
// private key: the server gets the account's public key, as an operator gives it.
const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(ABANDON));
const base58check = createBase58check(sha256);

/** The account public key at `path`, serialised with other version bytes (zpub, vpub…). */
function accountKey(path: string, version = 0x0488b21e): string {
  const bytes = base58check.decode(root.derive(path).publicExtendedKey);
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(0, version);
  return base58check.encode(bytes);
}

const ZPUB = 0x04b24746;
const VPUB = 0x045f1cf6;
const TPUB = 0x043587cf;

describe('BIP-32 public derivation (BIP-32 test vector 1, seed 000102…0f)', () => {
  // m/0H/1/2H, then its public children m/0H/1/2H/2 and m/0H/1/2H/2/1000000000.
  const m_0h_1_2h =
    'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5';
  const m_0h_1_2h_2 =
    'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV';
  const m_0h_1_2h_2_1000000000 =
    'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy';

  it('parses a depth-3 xpub and derives the published public children from it', () => {
    const { account, prefix } = parseAccountKey('ETH_XPUB', m_0h_1_2h, 'plain');
    expect(prefix).toBe('xpub');
    expect(account.publicExtendedKey).toBe(m_0h_1_2h);
    expect(account.privateKey).toBeNull();
    const child = account.deriveChild(2);
    expect(child.publicExtendedKey).toBe(m_0h_1_2h_2);
    expect(child.deriveChild(1_000_000_000).publicExtendedKey).toBe(m_0h_1_2h_2_1000000000);
  });

  it('refuses a key that is not at the account level, saying at which depth it is', () => {
    expect(() => parseAccountKey('ETH_XPUB', m_0h_1_2h_2, 'plain')).toThrow(
      "ETH_XPUB must be the account-level key (depth 3, e.g. m/44'/60'/0'), but this key is at depth 4",
    );
  });
});

describe('Bitcoin: BIP-84 test vectors', () => {
  // BIP-84 "Test vectors": the account 0 zpub and its first receive addresses.
  const BIP84_ZPUB =
    'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

  const config = (xpub: string, network = 'mainnet') => {
    const bitcoin = loadChainConfig({
      BTC_RPC_URL: 'http://user:pass@127.0.0.1:18443',
      BTC_XPUB: xpub,
      BTC_NETWORK: network,
    }).bitcoin;
    if (!bitcoin) throw new Error('bitcoin not configured');
    return bitcoin;
  };

  it('derives the published account zpub and receive addresses from the zpub', () => {
    expect(accountKey("m/84'/0'/0'", ZPUB)).toBe(BIP84_ZPUB);
    const first = derive(config(BIP84_ZPUB), 0);
    expect(first).toMatchObject({
      chain: 'bitcoin',
      index: 0,
      address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      publicKey: '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c',
    });
    // The P2WPKH output script: OP_0, push 20, the witness program of the address.
    expect(first.matchKey).toBe('0014c0cebcd6c3d3ca8c75dc5ec62ebe55330ef910e2');
    expect(bitcoinScriptOf(first.address, 'mainnet')).toBe(first.matchKey);
    expect(derive(config(BIP84_ZPUB), 1).address).toBe(
      'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
    );
  });

  it('gives the same addresses for the same key as xpub (the key data decides)', () => {
    const asXpub = accountKey("m/84'/0'/0'");
    expect(derive(config(asXpub), 0).address).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
  });

  it('writes test-network keys in the test formats: tb1 (published vector) and bcrt1', () => {
    const vpub = accountKey("m/84'/1'/0'", VPUB);
    // m/84'/1'/0'/0/0 of the same mnemonic, as wallets publish it for testnet.
    const testnet = derive(config(vpub, 'testnet'), 0);
    expect(testnet.address).toBe('tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
    const regtest = derive(config(accountKey("m/84'/1'/0'", TPUB), 'regtest'), 0);
    expect(regtest.address).toMatch(/^bcrt1q/);
    // Same key, same script: only the format differs, and the regtest address is valid.
    expect(regtest.matchKey).toBe(testnet.matchKey);
    const decoded = decodeSegwitAddress(regtest.address, 'bcrt');
    expect(decoded.ok && decoded.version).toBe(0);
    expect(bitcoinScriptOf(regtest.address, 'regtest')).toBe(testnet.matchKey);
    expect(bitcoinScriptOf(regtest.address, 'mainnet')).toBeNull();
  });

  it('matches admin-added legacy addresses by their output script too', () => {
    // Genesis coinbase address (P2PKH) and the BIP-16 style P2SH example of BIP-13.
    expect(bitcoinScriptOf('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'mainnet')).toBe(
      '76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac',
    );
    expect(bitcoinScriptOf('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'mainnet')).toMatch(
      /^a914[0-9a-f]{40}87$/,
    );
    expect(bitcoinScriptOf('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'regtest')).toBeNull();
    expect(bitcoinScriptOf('not an address', 'mainnet')).toBeNull();
  });
});

describe('Ethereum', () => {
  it('writes EIP-55 checksummed addresses (the EIP-55 examples)', () => {
    // A derived address goes through toChecksumAddress; EIP-55's own examples check that
    // step from the lower-case form.
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(toChecksumAddress(address.toLowerCase())).toBe(address);
      expect(ethereumMatchKeyOf(address)).toBe(address.toLowerCase());
    }
  });

  it('derives m/44’/60’/0’/0/i: the published addresses of two test mnemonics', () => {
    const ethereum = loadChainConfig({
      ETH_RPC_URL: 'http://127.0.0.1:8545',
      ETH_XPUB: accountKey("m/44'/60'/0'"),
    }).ethereum;
    if (!ethereum) throw new Error('ethereum not configured');
    // The abandon … about mnemonic's first Ethereum address (BIP-39 tool, MetaMask).
    expect(derive(ethereum, 0)).toMatchObject({
      chain: 'ethereum',
      address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
      matchKey: '0x9858effd232b4033e47d90003d41ec34ecaeda94',
    });

    // Hardhat's and anvil's default accounts (mnemonic "test test … junk").
    const dev = HDKey.fromMasterSeed(
      mnemonicToSeedSync('test test test test test test test test test test test junk'),
    );
    const devConfig = loadChainConfig({
      ETH_RPC_URL: 'http://127.0.0.1:8545',
      ETH_XPUB: dev.derive("m/44'/60'/0'").publicExtendedKey,
    }).ethereum;
    if (!devConfig) throw new Error('ethereum not configured');
    expect(derive(devConfig, 0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(derive(devConfig, 1).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  });

  it('takes a compressed key to the address of its uncompressed form', () => {
    // The generator point G (private key 1): its address is well known.
    const g = hexToBytes('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
    expect(ethereumAddressOf(g)).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
  });
});

describe('TRON', () => {
  it('derives m/44’/195’/0’/0/0 of abandon … about: TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', () => {
    // The address Ledger's TRON app tests against for this mnemonic and path, also given by
    // the BIP-39 tool (iancoleman.io/bip39) and TronLink.
    const tron = loadChainConfig({
      TRON_API_URL: 'http://127.0.0.1:8090',
      TRON_XPUB: accountKey("m/44'/195'/0'"),
    }).tron;
    if (!tron) throw new Error('tron not configured');
    const first = derive(tron, 0);
    expect(first.address).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    expect(first.matchKey).toMatch(/^41[0-9a-f]{40}$/);
    expect(tronMatchKeyOf(first.address)).toBe(first.matchKey);
    expect(tronAddressFromHex(first.matchKey)).toBe(first.address);
    expect(tron.usdtContract).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });

  it('converts between the two forms of a known address (TRON documentation example)', () => {
    // developers.tron.network, "Account": TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL is 41 8840e6…
    expect(tronMatchKeyOf('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL')).toBe(
      '418840e6c55b9ada326d211d818c34a994aeced808',
    );
    expect(tronMatchKeyOf('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM')).toBeNull();
  });
});

describe('derive', () => {
  it('never repeats an address across indexes, and refuses an index out of range', () => {
    const ethereum = loadChainConfig({
      ETH_RPC_URL: 'http://127.0.0.1:8545',
      ETH_XPUB: accountKey("m/44'/60'/0'"),
    }).ethereum;
    if (!ethereum) throw new Error('ethereum not configured');
    const addresses = new Set(Array.from({ length: 50 }, (_, i) => derive(ethereum, i).address));
    expect(addresses.size).toBe(50);
    expect(() => derive(ethereum, -1)).toThrow(RangeError);
    expect(() => derive(ethereum, 2 ** 31)).toThrow(RangeError);
  });
});
