import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { ANVIL_DEV_KEY } from '@server-test/fixtures/ethereum/anvil';
import {
  decodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  parseGwei,
  parseTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { buildEthereumEntry } from './ethereum-payout-build';
import { checkSignedEthereum, parseEthereumSubmission } from './ethereum-payout-check';
import { signEthereumFile } from './ethereum-payout-sign';
import {
  type EthPayoutEntry,
  type EthPayoutFile,
  PAYOUT_DERIVATION_PATH,
  payoutAddressOf,
} from './ethereum-payout-tx';
import { PayoutFileError } from './payout-file-error';

// The operator's phrase exists only in tests; the server is given the account's xpub.
const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ACCOUNT = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive("m/44'/60'/0'");
const PAYOUT = payoutAddressOf(HDKey.fromExtendedKey(ACCOUNT.publicExtendedKey));
// viem's own derivation of the same path: an implementation independent of Coffer's.
const SIGNER = mnemonicToAccount(MNEMONIC, { path: PAYOUT_DERIVATION_PATH });
const STRANGER = privateKeyToAccount(ANVIL_DEV_KEY);

const ALICE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const MALLORY = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const CHAIN_ID = 1;
const FEES = { maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei('2') };

function ethEntry(overrides: Partial<Parameters<typeof buildEthereumEntry>[0]> = {}) {
  return buildEthereumEntry({
    payoutId: 'p-eth',
    assetId: 'ETH',
    recipient: ALICE,
    amount: 1_234_567_890_000_000n,
    usdtContract: USDT,
    from: PAYOUT,
    nonce: 7,
    gas: 21_000n,
    fees: FEES,
    chainId: CHAIN_ID,
    ...overrides,
  });
}

function usdtEntry() {
  return buildEthereumEntry({
    payoutId: 'p-usdt',
    assetId: 'USDT-ERC20',
    recipient: ALICE,
    amount: 25_500_000n,
    usdtContract: USDT,
    from: PAYOUT,
    nonce: 8,
    gas: 65_000n,
    fees: FEES,
    chainId: CHAIN_ID,
  });
}

/** The entry's transaction as a signer would build it from the file's fields. */
function fieldsOf(entry: EthPayoutEntry): TransactionSerializableEIP1559 {
  return {
    type: 'eip1559',
    chainId: entry.chainId,
    nonce: entry.nonce,
    to: entry.to as Hex,
    value: BigInt(entry.value),
    data: entry.data,
    gas: BigInt(entry.gas),
    maxFeePerGas: BigInt(entry.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
  };
}

async function refusal(promise: Promise<unknown>): Promise<readonly string[]> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PayoutFileError);
  return (err as PayoutFileError).differences;
}

function refusalOf(fn: () => unknown): readonly string[] {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(PayoutFileError);
  return (caught as PayoutFileError).differences;
}

function fileOf(...entries: EthPayoutEntry[]): EthPayoutFile {
  return { kind: 'coffer-ethereum-payouts', version: 1, batchId: 'b-1', entries };
}

describe('the payout address', () => {
  it('is account/1/0 of the xpub, the address a wallet derives at m/44h/60h/0h/1/0', () => {
    expect(PAYOUT).toBe(SIGNER.address);
    // Not the first deposit address (account/0/0), which a customer may be given.
    expect(PAYOUT).not.toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });
});

describe('buildEthereumEntry', () => {
  it('builds an ETH payout as to + value, and its serialization reads back to the same fields', () => {
    const entry = ethEntry();
    expect(entry).toMatchObject({
      payoutIds: ['p-eth'],
      assetId: 'ETH',
      recipient: ALICE,
      amount: '1234567890000000',
      from: PAYOUT,
      derivationPath: "m/44'/60'/0'/1/0",
      to: ALICE,
      value: '1234567890000000',
      data: '0x',
      nonce: 7,
      gas: '21000',
      maxFeePerGas: '50000000000',
      maxPriorityFeePerGas: '2000000000',
      chainId: 1,
    });
    expect(entry.unsignedSerialized.startsWith('0x02')).toBe(true);
    expect(parseTransaction(entry.unsignedSerialized)).toEqual({
      type: 'eip1559',
      chainId: 1,
      nonce: 7,
      to: ALICE.toLowerCase(),
      value: 1_234_567_890_000_000n,
      gas: 21_000n,
      maxFeePerGas: parseGwei('50'),
      maxPriorityFeePerGas: parseGwei('2'),
    });
    // A JSON round trip (the file on disk) keeps everything.
    expect(JSON.parse(JSON.stringify(entry))).toEqual(entry);
  });

  it('builds a USDT payout as transfer(recipient, amount) sent to the contract with no ETH', () => {
    const entry = usdtEntry();
    expect(entry).toMatchObject({ to: USDT, value: '0', amount: '25500000', recipient: ALICE });
    const call = decodeFunctionData({ abi: erc20Abi, data: entry.data });
    expect(call.functionName).toBe('transfer');
    expect(call.args).toEqual([ALICE, 25_500_000n]);
    const tx = parseTransaction(entry.unsignedSerialized);
    expect(tx).toMatchObject({ to: USDT.toLowerCase(), data: entry.data, nonce: 8, gas: 65_000n });
    expect(tx.value).toBeUndefined();
  });

  it('refuses a recipient with a broken checksum, a zero amount and a tip above the fee cap', () => {
    expect(() => ethEntry({ recipient: ALICE.replace('8ba1', '8BA1') })).toThrow(
      /not an Ethereum address/,
    );
    expect(() => ethEntry({ amount: 0n })).toThrow(/above zero/);
    expect(() =>
      ethEntry({ fees: { maxFeePerGas: parseGwei('1'), maxPriorityFeePerGas: parseGwei('2') } }),
    ).toThrow(/maxPriorityFeePerGas/);
  });
});

describe('checkSignedEthereum', () => {
  it('accepts the transaction as built, signed by the payout key, and gives its hash', async () => {
    const entry = ethEntry();
    const signed = await SIGNER.signTransaction(fieldsOf(entry));
    const result = await checkSignedEthereum(entry, signed, PAYOUT);
    expect(result).toEqual({ hash: keccak256(signed), raw: signed });
  });

  it('accepts fees lowered by the signer (never raised)', async () => {
    const entry = ethEntry();
    const signed = await SIGNER.signTransaction({
      ...fieldsOf(entry),
      maxFeePerGas: parseGwei('30'),
      maxPriorityFeePerGas: parseGwei('1'),
    });
    await expect(checkSignedEthereum(entry, signed, PAYOUT)).resolves.toMatchObject({
      raw: signed,
    });
  });

  it('refuses another recipient address', async () => {
    const entry = ethEntry();
    const signed = await SIGNER.signTransaction({ ...fieldsOf(entry), to: MALLORY });
    expect(await refusal(checkSignedEthereum(entry, signed, PAYOUT))).toEqual([
      `to is ${MALLORY} where Coffer built ${ALICE}`,
    ]);
  });

  it('refuses another amount of ETH', async () => {
    const entry = ethEntry();
    const signed = await SIGNER.signTransaction({ ...fieldsOf(entry), value: 2n * 10n ** 18n });
    expect(await refusal(checkSignedEthereum(entry, signed, PAYOUT))).toEqual([
      'value is 2000000000000000000 wei where Coffer built 1234567890000000 wei',
    ]);
  });

  it('refuses a token transfer to someone else or of another amount, in plain words', async () => {
    const entry = usdtEntry();
    const signed = await SIGNER.signTransaction({
      ...fieldsOf(entry),
      data: encodeTransfer(MALLORY, 99_000_000n),
    });
    expect(await refusal(checkSignedEthereum(entry, signed, PAYOUT))).toEqual([
      `the token transfer goes to ${MALLORY} where Coffer built ${ALICE}`,
      'the token transfer is 99000000 where Coffer built 25500000',
    ]);
  });

  it('refuses other calldata, and calldata added to an ETH payout', async () => {
    const token = usdtEntry();
    const approve = await SIGNER.signTransaction({
      ...fieldsOf(token),
      data: `0x095ea7b3${'00'.repeat(12)}${MALLORY.slice(2).toLowerCase()}${'ff'.repeat(32)}`,
    });
    const [difference] = await refusal(checkSignedEthereum(token, approve, PAYOUT));
    expect(difference).toMatch(/^data is 0x095ea7b3.* where Coffer built 0xa9059cbb/);

    const eth = ethEntry();
    const withData = await SIGNER.signTransaction({ ...fieldsOf(eth), data: '0xdeadbeef' });
    expect(await refusal(checkSignedEthereum(eth, withData, PAYOUT))).toEqual([
      'data is 0xdeadbeef where Coffer built 0x',
    ]);
  });

  it('refuses another nonce, another chain and more gas, each named', async () => {
    const entry = ethEntry();
    const signed = await SIGNER.signTransaction({
      ...fieldsOf(entry),
      nonce: 6,
      chainId: 5,
      gas: 50_000n,
    });
    expect(await refusal(checkSignedEthereum(entry, signed, PAYOUT))).toEqual([
      'nonce is 6 where Coffer built 7',
      'chainId is 5 where Coffer built 1',
      'gas is 50000 where Coffer built 21000',
    ]);
  });

  it('refuses fees above those built', async () => {
    const entry = ethEntry();
    const signed = await SIGNER.signTransaction({
      ...fieldsOf(entry),
      maxFeePerGas: parseGwei('90'),
      maxPriorityFeePerGas: parseGwei('3'),
    });
    expect(await refusal(checkSignedEthereum(entry, signed, PAYOUT))).toEqual([
      'maxFeePerGas 90 gwei is above the 50 gwei built',
      'maxPriorityFeePerGas 3 gwei is above the 2 gwei built',
    ]);
  });

  it('refuses a transaction signed by another key', async () => {
    const entry = ethEntry();
    const signed = await STRANGER.signTransaction(fieldsOf(entry));
    expect(await refusal(checkSignedEthereum(entry, signed, PAYOUT))).toEqual([
      `signed by ${STRANGER.address} instead of the payout address ${PAYOUT}`,
    ]);
  });

  it('refuses a legacy transaction with the same fields', async () => {
    const entry = ethEntry();
    const signed = await SIGNER.signTransaction({
      type: 'legacy',
      chainId: entry.chainId,
      nonce: entry.nonce,
      to: ALICE,
      value: BigInt(entry.value),
      gas: 21_000n,
      gasPrice: parseGwei('40'),
    });
    expect(await refusal(checkSignedEthereum(entry, signed, PAYOUT))).toEqual([
      'the signed transaction is of type legacy; Coffer built an EIP-1559 (type 2) transaction',
    ]);
  });

  it('refuses the unsigned transaction, and garbage', async () => {
    const entry = ethEntry();
    expect(await refusal(checkSignedEthereum(entry, entry.unsignedSerialized, PAYOUT))).toEqual([
      'the transaction is not signed',
    ]);
    for (const garbage of ['0x02zz', '0x02abcd', 'hello', '0x', `0x02${'00'.repeat(40)}`]) {
      const [difference] = await refusal(checkSignedEthereum(entry, garbage as Hex, PAYOUT));
      expect(difference).toMatch(/is not a (hex transaction|transaction Coffer can read)/);
    }
  });
});

function encodeTransfer(to: string, amount: bigint): Hex {
  // Built by hand (selector + two words) rather than with Coffer's encoder, to check it.
  return `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
}

describe('signEthereumFile', () => {
  it('signs every entry with the payout key; the signatures check and equal viem’s own', async () => {
    const file = fileOf(ethEntry(), usdtEntry());
    const signed = signEthereumFile(file, MNEMONIC);
    expect(file.entries[0]?.signed).toBeUndefined(); // the input is left as it was
    expect(signed.batchId).toBe('b-1');
    for (const entry of signed.entries) {
      const raw = entry.signed as Hex;
      expect(raw.startsWith('0x02')).toBe(true);
      await expect(checkSignedEthereum(entry, raw, PAYOUT)).resolves.toMatchObject({ raw });
      // RFC 6979 signatures are deterministic: an independent signer gives the same bytes.
      expect(raw).toBe(await SIGNER.signTransaction(fieldsOf(entry)));
    }
  });

  it('accepts the phrase with extra spaces and line breaks', () => {
    const signed = signEthereumFile(fileOf(ethEntry()), `  ${MNEMONIC.replaceAll(' ', '\n ')} `);
    expect(signed.entries[0]?.signed).toMatch(/^0x02/);
  });

  it('refuses an entry whose fields were edited without its serialization', () => {
    const entry = { ...ethEntry(), to: MALLORY, recipient: MALLORY };
    expect(refusalOf(() => signEthereumFile(fileOf(usdtEntry(), entry), MNEMONIC))).toEqual([
      'entry 2: unsignedSerialized is not the transaction its fields describe',
    ]);
  });

  it('refuses an entry whose transaction does not pay the recipient it shows', () => {
    // Consistent fields and serialization, but `to` is not the recipient a reader sees.
    const shown = ethEntry();
    const paysMallory = ethEntry({ recipient: MALLORY });
    const entry = { ...paysMallory, recipient: shown.recipient };
    expect(refusalOf(() => signEthereumFile(fileOf(entry), MNEMONIC))).toEqual([
      `entry 1: to is ${MALLORY} but the recipient is ${ALICE}`,
    ]);
  });

  it('refuses a file built for another payout address, and signs nothing', () => {
    const other = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
    const file = fileOf(ethEntry());
    expect(refusalOf(() => signEthereumFile(file, other))[0]).toMatch(
      new RegExp(`^entry 1: from is ${PAYOUT}, but m/44'/60'/0'/1/0 is 0x`),
    );
    expect(file.entries[0]?.signed).toBeUndefined();
  });

  it('refuses a phrase that is not a BIP-39 mnemonic', () => {
    expect(() => signEthereumFile(fileOf(ethEntry()), 'abandon abandon abandon')).toThrow(
      /not a valid BIP-39/,
    );
  });
});

describe('parseEthereumSubmission', () => {
  const file = signEthereumFile(fileOf(ethEntry(), usdtEntry()), MNEMONIC);
  const [a, b] = file.entries.map((e) => e.signed as Hex);

  it('reads the signed payout file, each transaction with its entry', () => {
    expect(parseEthereumSubmission(JSON.stringify(file, null, 2))).toEqual([
      { entryIndex: 0, signed: a },
      { entryIndex: 1, signed: b },
    ]);
  });

  it('reads a partly signed file as its signed entries', () => {
    const partly = { ...file, entries: [{ ...ethEntry() }, file.entries[1]] };
    expect(parseEthereumSubmission(JSON.stringify(partly))).toEqual([{ entryIndex: 1, signed: b }]);
  });

  it('reads a JSON array of raw transactions', () => {
    expect(parseEthereumSubmission(JSON.stringify([a, b]))).toEqual([
      { entryIndex: null, signed: a },
      { entryIndex: null, signed: b },
    ]);
  });

  it('reads one raw transaction per line, blank lines, CRLF, upper case and no 0x included', () => {
    const text = `\n${a}\r\n\r\n  ${(b ?? '').slice(2).toUpperCase()}  \n`;
    expect(parseEthereumSubmission(text)).toEqual([
      { entryIndex: null, signed: a },
      { entryIndex: null, signed: b },
    ]);
  });

  it('refuses garbage, naming where it is', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['   \n  ', /empty/],
      ['{"kind": "coffer-bitcoin-payouts", "entries": []}', /not a Coffer Ethereum payout file/],
      ['{not json', /not valid JSON/],
      [JSON.stringify(fileOf(ethEntry())), /no signed transaction/],
      [`${a}\nhello`, /^Line 2 is not a signed EIP-1559 transaction/],
      [
        JSON.stringify([a, 42]),
        /^Item 2 is not a signed EIP-1559 transaction \(hex starting 0x02\): number/,
      ],
      ['0xf86c0185', /^Line 1 is not a signed EIP-1559/],
      [
        JSON.stringify({ ...file, entries: [{ ...file.entries[0], signed: '0x02abc' }] }),
        /^Entry 1's signed is not a signed EIP-1559/,
      ],
    ];
    for (const [text, message] of cases) {
      expect(refusalOf(() => parseEthereumSubmission(text))[0], text).toMatch(message);
    }
  });
});
