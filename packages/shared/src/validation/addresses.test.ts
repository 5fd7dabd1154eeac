import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ADDRESS_MSG,
  bitcoinAddressNetwork,
  decodeSegwitAddress,
  refineAssetAddress,
  refineNetworkAddress,
  setBitcoinAddressNetwork,
  toChecksumAddress,
  validateAddress,
  validateAddressForSymbol,
  validateBitcoinAddress,
  validateNetworkAddress,
  validateTronAddress,
  ZAssetAddress,
} from './addresses';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** The output script a segwit address pays to, as the BIPs list it. */
function scriptPubKey(address: string, hrp: string): string | undefined {
  const decoded = decodeSegwitAddress(address, hrp);
  if (!decoded.ok) return undefined;
  const opVersion = decoded.version === 0 ? 0 : 0x50 + decoded.version;
  return hex.encode(Uint8Array.of(opVersion, decoded.program.length, ...decoded.program));
}

/** Every address that differs from `address` in exactly one character, from `from` on. */
function* singleSubstitutions(address: string, alphabet: string, from = 0): Generator<string> {
  for (let i = from; i < address.length; i++) {
    for (const c of alphabet) {
      if (c !== address[i]) yield address.slice(0, i) + c + address.slice(i + 1);
    }
  }
}

function messageOf(result: ReturnType<typeof validateAddress>): string | undefined {
  return result.ok ? undefined : result.message;
}

describe('segwit decoding: BIP-173 and BIP-350 test vectors', () => {
  // BIP-350 "Valid segwit addresses", with the scriptPubKey each one pays to.
  const valid: [string, string, string][] = [
    [
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'bc',
      '0014751e76e8199196d454941c45d1b3a323f1433bd6',
    ],
    [
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      'tb',
      '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
    ],
    [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      'bc',
      '5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6',
    ],
    ['BC1SW50QGDZ25J', 'bc', '6002751e'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'bc', '5210751e76e8199196d454941c45d1b3a323'],
    [
      'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
      'tb',
      '0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
    ],
    [
      'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
      'tb',
      '5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
    ],
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      'bc',
      '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
    ],
  ];

  it('decodes every valid vector to its scriptPubKey', () => {
    for (const [address, hrp, script] of valid) {
      expect(scriptPubKey(address, hrp), address).toBe(script);
    }
  });

  // BIP-173 "Invalid addresses" and BIP-350 "Invalid segwit addresses"; none may decode
  // for either network.
  const invalid: [string, string][] = [
    ['tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty', 'invalid human-readable part'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'invalid checksum'],
    ['BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2', 'invalid witness version'],
    ['bc1rw5uspcuh', 'invalid program length'],
    [
      'bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90',
      'invalid program length',
    ],
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'invalid program length for witness version 0'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7', 'mixed case'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', 'zero padding of more than 4 bits'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv', 'non-zero padding'],
    ['bc1gmk9yu', 'empty data section'],
    [
      'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut',
      'invalid human-readable part',
    ],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'bech32 instead of bech32m'],
    ['tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', 'bech32 instead of bech32m'],
    ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'bech32 instead of bech32m'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'bech32m instead of bech32'],
    ['tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', 'bech32m instead of bech32'],
    [
      'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4',
      'invalid character in checksum',
    ],
    ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'invalid witness version'],
    ['bc1pw5dgrnzv', 'invalid program length (1 byte)'],
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav',
      'invalid program length (41 bytes)',
    ],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'mixed case'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'zero padding'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'non-zero padding'],
  ];

  it('refuses every invalid vector', () => {
    for (const [address, why] of invalid) {
      expect(decodeSegwitAddress(address, 'bc').ok, `${address}: ${why}`).toBe(false);
      expect(decodeSegwitAddress(address, 'tb').ok, `${address}: ${why}`).toBe(false);
      expect(validateBitcoinAddress(address).ok, `${address}: ${why}`).toBe(false);
    }
  });

  it("refuses BIP-173's original v1+ vectors, which BIP-350 moved to bech32m", () => {
    for (const address of [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
      'BC1SW50QA3JX3S',
      'bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj',
    ]) {
      expect(decodeSegwitAddress(address, 'bc'), address).toEqual({
        ok: false,
        reason: 'checksum',
      });
    }
  });
});

describe('Bitcoin withdrawal addresses', () => {
  it('accepts P2PKH, P2SH, P2WPKH, P2WSH and Taproot on mainnet', () => {
    for (const address of [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    ]) {
      expect(validateAddress('BTC', address), address).toEqual({ ok: true, address });
    }
  });

  it('trims, and returns an all-capitals bech32 address lower-cased', () => {
    expect(validateAddress('BTC', ' BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 ')).toEqual({
      ok: true,
      address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    });
    expect(validateAddress('BTC', '\t1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa\n')).toEqual({
      ok: true,
      address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    });
  });

  it('refuses a base58 address with one character changed, as a checksum error', () => {
    expect(messageOf(validateAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'))).toBe(
      ADDRESS_MSG.bitcoinChecksum,
    );
    expect(messageOf(validateAddress('BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz'))).toBe(
      ADDRESS_MSG.bitcoinChecksum,
    );
    for (const address of [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    ]) {
      for (const typo of singleSubstitutions(address, BASE58_ALPHABET)) {
        expect(validateAddress('BTC', typo).ok, typo).toBe(false);
      }
    }
  });

  it('refuses a bech32 address with any one character changed, or in mixed case', () => {
    const address = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    for (const typo of singleSubstitutions(address, BECH32_ALPHABET, 'bc1'.length)) {
      expect(messageOf(validateAddress('BTC', typo)), typo).toBe(ADDRESS_MSG.bitcoinChecksum);
    }
    expect(messageOf(validateAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4'))).toBe(
      ADDRESS_MSG.bitcoinFormat,
    );
    expect(messageOf(validateAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3tb'))).toBe(
      ADDRESS_MSG.bitcoinFormat,
    );
  });

  it('refuses testnet addresses: this custodian pays out on mainnet only', () => {
    const base58check = createBase58check(sha256);
    const genesisHash = hex.decode('62e907b15cbf27d5425399ebf6f0fb50ebb88f18');
    const testnetP2pkh = base58check.encode(Uint8Array.of(0x6f, ...genesisHash));
    const testnetP2sh = base58check.encode(Uint8Array.of(0xc4, ...genesisHash));
    expect(testnetP2pkh.startsWith('m') || testnetP2pkh.startsWith('n')).toBe(true);
    expect(testnetP2sh.startsWith('2')).toBe(true);
    for (const address of [
      testnetP2pkh,
      testnetP2sh,
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
    ]) {
      expect(messageOf(validateAddress('BTC', address)), address).toBe(ADDRESS_MSG.bitcoinTestnet);
    }
    // The mainnet form of the same hash is the genesis address.
    expect(base58check.encode(Uint8Array.of(0x00, ...genesisHash))).toBe(
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    );
  });

  it('follows the network the server runs on: testnet and regtest take their own forms', () => {
    // BIP-84's first receive key (abandon … about): the same witness program in each
    // network's form; tb1q6rz2… is m/84'/1'/0'/0/0 of the same mnemonic.
    const regtest = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
    const testnet = 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl';
    const mainnet = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
    const testBase58 = 'mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV';

    expect(validateBitcoinAddress(regtest, 'regtest')).toEqual({ ok: true, address: regtest });
    expect(validateBitcoinAddress(regtest.toUpperCase(), 'regtest')).toEqual({
      ok: true,
      address: regtest,
    });
    expect(validateBitcoinAddress(testnet, 'testnet')).toEqual({ ok: true, address: testnet });
    expect(validateBitcoinAddress(testBase58, 'testnet').ok).toBe(true);
    expect(validateBitcoinAddress(testBase58, 'regtest').ok).toBe(true);

    const notRegtest =
      'This is not a Bitcoin regtest address. This service runs on Bitcoin regtest.';
    for (const address of [mainnet, testnet, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa']) {
      expect(messageOf(validateBitcoinAddress(address, 'regtest')), address).toBe(notRegtest);
    }
    expect(messageOf(validateBitcoinAddress(regtest, 'testnet'))).toBe(
      'This is not a Bitcoin testnet address. This service runs on Bitcoin testnet.',
    );
    expect(messageOf(validateBitcoinAddress(regtest, 'mainnet'))).toBe(ADDRESS_MSG.bitcoinTestnet);
    // A mistyped regtest address is a checksum error, as on mainnet.
    expect(messageOf(validateBitcoinAddress(`${regtest.slice(0, -1)}q`, 'regtest'))).toBe(
      ADDRESS_MSG.bitcoinChecksum,
    );
  });

  it('checks by the network set at start-up wherever no network is given (schemas too)', () => {
    const regtest = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
    expect(bitcoinAddressNetwork()).toBe('mainnet');
    setBitcoinAddressNetwork('regtest');
    try {
      expect(validateAddress('BTC', regtest)).toEqual({ ok: true, address: regtest });
      expect(validateNetworkAddress('bitcoin', regtest).ok).toBe(true);
      expect(ZAssetAddress('BTC').parse(regtest)).toBe(regtest);
      expect(messageOf(validateAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'))).toBe(
        'This is not a Bitcoin regtest address. This service runs on Bitcoin regtest.',
      );
    } finally {
      setBitcoinAddressNetwork('mainnet');
    }
    expect(messageOf(validateAddress('BTC', regtest))).toBe(ADDRESS_MSG.bitcoinTestnet);
  });

  it('refuses witness programs nothing spends yet, though they decode', () => {
    for (const address of [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      'BC1SW50QGDZ25J',
      'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
    ]) {
      expect(messageOf(validateAddress('BTC', address)), address).toBe(
        ADDRESS_MSG.bitcoinUnsupportedKind,
      );
    }
  });

  it("answers other shapes with the spec's format message", () => {
    for (const address of [
      '1abc',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNI',
      'not an address',
    ]) {
      expect(messageOf(validateAddress('BTC', address)), address).toBe(ADDRESS_MSG.bitcoinFormat);
    }
  });
});

describe('Ethereum and USDT-ERC20 addresses (EIP-55)', () => {
  // EIP-55's own examples: all capitals, all lower case, and checksummed.
  const eip55 = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];
  const checksummed = eip55.slice(4);

  it('accepts every EIP-55 example, for ETH and for USDT on ERC-20', () => {
    for (const address of eip55) {
      expect(validateAddress('ETH', address), address).toEqual({ ok: true, address });
      expect(validateAddress('USDT-ERC20', address), address).toEqual({ ok: true, address });
    }
  });

  it('computes the EIP-55 form from any case', () => {
    for (const address of checksummed) {
      expect(toChecksumAddress(address.toLowerCase())).toBe(address);
      expect(toChecksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    }
  });

  it("refuses a checksummed address with any one letter's case flipped", () => {
    for (const address of checksummed) {
      for (let i = 2; i < address.length; i++) {
        const char = address.charAt(i);
        const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
        if (flipped === char) continue;
        const typo = address.slice(0, i) + flipped + address.slice(i + 1);
        expect(messageOf(validateAddress('ETH', typo)), typo).toBe(ADDRESS_MSG.ethereumChecksum);
      }
    }
    expect(ADDRESS_MSG.ethereumChecksum).toBe(
      'Invalid Ethereum address checksum. Check the address and try again.',
    );
  });

  it("answers wrong shapes with the spec's format message", () => {
    for (const address of [
      '0x123',
      '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    ]) {
      expect(messageOf(validateAddress('ETH', address)), address).toBe(ADDRESS_MSG.ethereumFormat);
      expect(messageOf(validateAddress('USDT-ERC20', address)), address).toBe(
        ADDRESS_MSG.ethereumFormat,
      );
    }
  });
});

describe('Tron and USDT-TRC20 addresses', () => {
  const usdtContract = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

  it('accepts the USDT contract address and decodes its 0x41 account id', () => {
    expect(validateAddress('USDT-TRC20', usdtContract)).toEqual({
      ok: true,
      address: usdtContract,
    });
    expect(hex.encode(createBase58check(sha256).decode(usdtContract))).toBe(
      '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
    );
  });

  it('refuses the address with any one character changed', () => {
    expect(messageOf(validateTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'))).toBe(
      ADDRESS_MSG.tronChecksum,
    );
    for (const typo of singleSubstitutions(usdtContract, BASE58_ALPHABET, 1)) {
      expect(validateAddress('USDT-TRC20', typo).ok, typo).toBe(false);
    }
  });

  it("answers wrong shapes with the spec's format message", () => {
    for (const address of [
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t1',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    ]) {
      expect(messageOf(validateAddress('USDT-TRC20', address)), address).toBe(
        ADDRESS_MSG.tronFormat,
      );
    }
  });
});

describe('validateAddress and validateAddressForSymbol', () => {
  it('asks for an address first, then for a known asset', () => {
    expect(messageOf(validateAddress('BTC', '   '))).toBe('Address is required');
    expect(messageOf(validateAddress('DOGE', 'D8vFz4p1L37jdg47HXKtSHA5uYLYxbGgPD'))).toBe(
      'Unsupported cryptocurrency',
    );
  });

  it("follows by symbol, with S8's Tron rule for USDT-TRC20", () => {
    const eth = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const tron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(validateAddressForSymbol('USDT', eth).ok).toBe(true);
    expect(validateAddressForSymbol('USDT', tron).ok).toBe(true);
    expect(validateAddressForSymbol('USDT-TRC20', tron).ok).toBe(true);
    expect(messageOf(validateAddressForSymbol('USDT-TRC20', eth))).toBe(
      'Invalid Tron address format',
    );
    expect(messageOf(validateAddressForSymbol('ETH', tron))).toBe(
      'Invalid Ethereum address format',
    );
    for (const address of ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '0x1234', 'T123']) {
      expect(messageOf(validateAddressForSymbol('USDT', address)), address).toBe(
        'Invalid USDT address format (must be ERC-20 or TRC-20)',
      );
    }
    expect(
      messageOf(validateAddressForSymbol('USDT', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')),
    ).toBe(ADDRESS_MSG.ethereumChecksum);
    expect(messageOf(validateAddressForSymbol('USDT', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'))).toBe(
      ADDRESS_MSG.tronChecksum,
    );
    expect(messageOf(validateAddressForSymbol('XRP', tron))).toBe('Unsupported cryptocurrency');
    expect(messageOf(validateAddressForSymbol('USDT', ''))).toBe('Address is required');
  });
});

describe('validateNetworkAddress (admin deposit addresses)', () => {
  const eth = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

  it('uses each network rule', () => {
    expect(validateNetworkAddress('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa').ok).toBe(true);
    for (const network of ['ethereum', 'erc20', 'bep20', 'polygon']) {
      expect(validateNetworkAddress(network, eth), network).toEqual({ ok: true, address: eth });
    }
    expect(validateNetworkAddress('trc20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t').ok).toBe(true);
    expect(messageOf(validateNetworkAddress('trc20', eth))).toBe('Invalid Tron address format');
  });

  it('names the EVM network in its messages', () => {
    expect(messageOf(validateNetworkAddress('bep20', '0x12'))).toBe(
      'Invalid BEP-20 address format',
    );
    expect(messageOf(validateNetworkAddress('polygon', eth.replace('fB', 'Fb')))).toBe(
      'Invalid Polygon address checksum. Check the address and try again.',
    );
  });

  it('checks Solana addresses decode to 32 bytes', () => {
    for (const address of [
      'So11111111111111111111111111111111111111112',
      '11111111111111111111111111111111',
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    ]) {
      expect(validateNetworkAddress('solana', address), address).toEqual({ ok: true, address });
    }
    for (const address of [
      'So1111111111111111111111111111111111111111',
      '1111111111111111111111111111111',
      'So11111111111111111111111111111111111111110',
      eth,
      'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
    ]) {
      expect(messageOf(validateNetworkAddress('solana', address)), address).toBe(
        'Invalid Solana address format',
      );
    }
  });

  it('refuses networks it does not know', () => {
    expect(messageOf(validateNetworkAddress('dogecoin', eth))).toBe('Unsupported network');
    expect(messageOf(validateNetworkAddress('ERC20', eth))).toBe('Unsupported network');
    expect(messageOf(validateNetworkAddress('bitcoin', ''))).toBe('Address is required');
  });
});

describe('zod helpers', () => {
  it('ZAssetAddress outputs the normalized address or the rule message', () => {
    const schema = ZAssetAddress('BTC');
    expect(schema.parse(' BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 ')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    expect(schema.safeParse('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb').error?.issues[0]?.message).toBe(
      ADDRESS_MSG.bitcoinChecksum,
    );
    expect(schema.safeParse(undefined).error?.issues[0]?.message).toBe('Address is required');
  });

  it('refineAssetAddress reports on the address field of the chosen asset', () => {
    const schema = z
      .object({ assetId: z.string(), address: z.string().trim() })
      .superRefine(refineAssetAddress);
    const tron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(schema.parse({ assetId: 'USDT-TRC20', address: ` ${tron} ` }).address).toBe(tron);
    const issue = schema.safeParse({ assetId: 'USDT-ERC20', address: tron }).error?.issues[0];
    expect(issue?.path).toEqual(['address']);
    expect(issue?.message).toBe('Invalid Ethereum address format');
  });

  it('refineNetworkAddress does the same by network', () => {
    const schema = z
      .object({ network: z.string(), address: z.string() })
      .superRefine(refineNetworkAddress);
    expect(schema.safeParse({ network: 'solana', address: 'x' }).error?.issues[0]?.path).toEqual([
      'address',
    ]);
    expect(
      schema.safeParse({
        network: 'solana',
        address: 'So11111111111111111111111111111111111111112',
      }).success,
    ).toBe(true);
  });
});
