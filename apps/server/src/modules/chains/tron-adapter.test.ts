import { StartupError } from '@server/lib/startup-error';
import {
  type FakeTronGrid,
  randomTronAddress,
  startFakeTronGrid,
  tronHex,
} from '@server-test/fake-trongrid';
import { freePort } from '@server-test/free-port';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { watchingOnly } from './fake-chain';
import { TronAdapter } from './tron-adapter';
import { tronBase58Address, tronHexAddress } from './tron-address';

// USDT's TRC-20 contract on TRON mainnet, as block explorers and Tether publish it.
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const USDT_HEX = '41a614f803b6fd780986a42c78ec9c7f77e6ded13c';

describe('TRON addresses', () => {
  it('reads the address example of TRON’s account documentation both ways', () => {
    // developers.tron.network, "Accounts": the same account in base58check and in hex.
    expect(tronHexAddress('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL')).toBe(
      '418840e6c55b9ada326d211d818c34a994aeced808',
    );
    expect(tronHexAddress('418840E6C55B9ADA326D211D818C34A994AECED808')).toBe(
      '418840e6c55b9ada326d211d818c34a994aeced808',
    );
    expect(tronBase58Address('418840E6C55B9ADA326D211D818C34A994AECED808')).toBe(
      'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    );
    expect(tronHexAddress(USDT)).toBe(USDT_HEX);
  });

  it('refuses a wrong checksum, another chain’s address and anything else', () => {
    // The example with its last character changed: still base58, checksum wrong.
    expect(tronHexAddress('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM')).toBeNull();
    expect(tronHexAddress('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqe')).toBeNull();
    // Bitcoin's genesis address: valid base58check, but prefix 0x00.
    expect(tronHexAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBeNull();
    // An Ethereum address is not a TRON deposit address.
    expect(tronHexAddress('0x8840e6c55b9ada326d211d818c34a994aeced808')).toBeNull();
    expect(tronHexAddress('428840e6c55b9ada326d211d818c34a994aeced808')).toBeNull();
    expect(tronHexAddress('')).toBeNull();
    const adapter = new TronAdapter({ apiUrl: 'http://127.0.0.1:9', usdtContract: USDT });
    expect(adapter.matchKeyOf('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM')).toBeNull();
    expect(adapter.matchKeyOf(' TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL ')).toBe(
      '418840e6c55b9ada326d211d818c34a994aeced808',
    );
  });

  it('refuses a contract that is not a TRON address, naming the setting', () => {
    expect(
      () =>
        new TronAdapter({
          apiUrl: 'http://127.0.0.1:9',
          usdtContract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T',
        }),
    ).toThrow(/USDT_TRC20_CONTRACT/);
  });
});

describe('TronAdapter against a fake TronGrid', () => {
  let fake: FakeTronGrid;
  let adapter: TronAdapter;

  beforeAll(async () => {
    fake = await startFakeTronGrid({ usdtContract: USDT });
    // The contract given in hex: the adapter must still ask for it by its base58 name.
    adapter = new TronAdapter({
      apiUrl: `${fake.url}/`,
      usdtContract: USDT_HEX,
      apiKey: 'k-123',
      timeoutMs: 500,
    });
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    Object.assign(fake.state, {
      mode: 'ok',
      pageSize: 200,
      decimals: 6,
      loopFingerprint: false,
      eventsFail: false,
      badEventValue: false,
      noReceipts: false,
    });
  });

  it('reads the tip and blocks by height, with hash, parent and time; above the tip is null', async () => {
    fake.mine();
    fake.mine();
    const tip = fake.tip();
    expect(await adapter.tip()).toBe(tip);
    const top = await adapter.blockAt(tip);
    const below = await adapter.blockAt(tip - 1);
    expect(top).toEqual({
      height: tip,
      hash: fake.block(tip)?.blockID,
      parentHash: below?.hash,
      time: new Date(fake.block(tip)?.timestamp ?? 0),
    });
    expect(await adapter.blockAt(tip + 1)).toBeNull();
    expect(fake.state.requests.at(-1)?.apiKey).toBe('k-123');
  });

  it('finds every Transfer to a watched address over several pages, with exact amounts', async () => {
    const [a, b, c] = [randomTronAddress(), randomTronAddress(), randomTronAddress()];
    const block = fake.mine([
      // Above 2^53: a double would round it.
      { to: a, value: '123456789012345678901', form: '0x' },
      { to: randomTronAddress(), value: '5000000' },
      { to: b, value: '1', form: '41' },
      { to: randomTronAddress(), value: '7000000' },
      { to: c, value: '1000000', form: 'base58' },
      { to: a, value: '2500000' },
      // Another token's transfer to a watched address is not USDT.
      { to: b, value: '99000000', contract: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' },
    ]);
    fake.state.pageSize = 2;
    const before = fake.eventRequests().length;
    const ref = await adapter.blockAt(block.number);
    if (!ref) throw new Error('block missing');
    const watched = watchingOnly([a, b, c].map((x) => adapter.matchKeyOf(x) ?? ''));
    const seen = await adapter.transfersIn(ref, watched);

    const event = (i: number) => block.events[i];
    expect(seen).toEqual([
      {
        txHash: event(0)?.transactionId,
        outputIndex: 0,
        matchKey: tronHex(a),
        assetId: 'USDT-TRC20',
        amountMinor: 123456789012345678901n,
      },
      {
        txHash: event(2)?.transactionId,
        outputIndex: 0,
        matchKey: tronHex(b),
        assetId: 'USDT-TRC20',
        amountMinor: 1n,
      },
      {
        txHash: event(4)?.transactionId,
        outputIndex: 0,
        matchKey: tronHex(c),
        assetId: 'USDT-TRC20',
        amountMinor: 1_000_000n,
      },
      {
        txHash: event(5)?.transactionId,
        outputIndex: 0,
        matchKey: tronHex(a),
        assetId: 'USDT-TRC20',
        amountMinor: 2_500_000n,
      },
    ]);
    // Six USDT events two to a page: three pages, the later two by fingerprint.
    const requests = fake.eventRequests().slice(before);
    expect(requests.map((r) => new URL(r.path, fake.url).searchParams.has('fingerprint'))).toEqual([
      false,
      true,
      true,
    ]);
    for (const r of requests) {
      const url = new URL(r.path, fake.url);
      expect(url.pathname).toBe(`/v1/contracts/${USDT}/events`);
      expect(url.searchParams.get('event_name')).toBe('Transfer');
      expect(url.searchParams.get('block_number')).toBe(String(block.number));
      expect(r.apiKey).toBe('k-123');
    }
    expect(await adapter.transfersIn(ref, watchingOnly([]))).toEqual([]);
  });

  it('follows a reorg: the same height answers another block, without the orphaned transfer', async () => {
    const to = randomTronAddress();
    const watched = watchingOnly([tronHex(to)]);
    const parent = await adapter.blockAt(fake.tip());
    const old = fake.mine([{ to, value: '42000000' }]);
    const oldRef = await adapter.blockAt(old.number);
    if (!oldRef) throw new Error('block missing');
    expect(await adapter.transfersIn(oldRef, watched)).toHaveLength(1);

    fake.rewind(old.number);
    fake.mine();
    const next = fake.mine();
    const newRef = await adapter.blockAt(old.number);
    if (!newRef) throw new Error('block missing');
    expect(newRef.hash).not.toBe(oldRef.hash);
    expect(newRef.parentHash).toBe(parent?.hash);
    expect(await adapter.transfersIn(newRef, watched)).toEqual([]);
    expect(await adapter.tip()).toBe(next.number);
  });

  it('throws on a 500, on no answer and on broken JSON: never an empty result', async () => {
    const to = randomTronAddress();
    const block = fake.mine([{ to, value: '1000000' }]);
    const ref = await adapter.blockAt(block.number);
    if (!ref) throw new Error('block missing');
    const watched = watchingOnly([tronHex(to)]);
    const cases = [
      ['http500', /HTTP 500/],
      ['hang', /no answer within 500 ms/],
      ['badjson', /not JSON/],
    ] as const;
    for (const [mode, message] of cases) {
      fake.state.mode = mode;
      await expect(adapter.tip()).rejects.toThrow(message);
      await expect(adapter.blockAt(block.number)).rejects.toThrow(message);
      await expect(adapter.transfersIn(ref, watched)).rejects.toThrow(message);
      await expect(adapter.verifyConfig()).rejects.toThrow(message);
    }
    fake.state.mode = 'ok';
    expect(await adapter.transfersIn(ref, watched)).toHaveLength(1);

    // Nothing listening at all: the reason, and not the URL (it may carry a key).
    const down = new TronAdapter({
      apiUrl: `http://127.0.0.1:${await freePort()}/secret-key`,
      usdtContract: USDT,
    });
    const refused = down.tip();
    await expect(refused).rejects.toThrow(
      'TRON API /wallet/getnowblock: the connection failed (ECONNREFUSED)',
    );
    await expect(refused).rejects.not.toThrow(/secret-key/);
  });

  it('throws on events without success, on a malformed event and on a fingerprint that repeats', async () => {
    const to = randomTronAddress();
    const block = fake.mine([{ to, value: '1000000' }]);
    const ref = await adapter.blockAt(block.number);
    if (!ref) throw new Error('block missing');
    const watched = watchingOnly([tronHex(to)]);
    fake.state.eventsFail = true;
    await expect(adapter.transfersIn(ref, watched)).rejects.toThrow(/without success/);
    fake.state.eventsFail = false;
    fake.state.badEventValue = true;
    await expect(adapter.transfersIn(ref, watched)).rejects.toThrow(/malformed Transfer event/);
    fake.state.badEventValue = false;
    fake.state.loopFingerprint = true;
    await expect(adapter.transfersIn(ref, watched)).rejects.toThrow(/fingerprint/);
  });

  it('checks at start-up that the contract has 6 decimals, naming the setting otherwise', async () => {
    await expect(adapter.verifyConfig()).resolves.toBeUndefined();
    fake.state.decimals = 18;
    const wrong = adapter.verifyConfig();
    await expect(wrong).rejects.toThrow(/USDT_TRC20_CONTRACT .* has 18 decimals/);
    // A StartupError: start-up prints its message alone and stops.
    await expect(wrong).rejects.toBeInstanceOf(StartupError);
    // A contract the node does not know.
    const other = new TronAdapter({
      apiUrl: fake.url,
      usdtContract: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    });
    await expect(other.verifyConfig()).rejects.toThrow(
      /USDT_TRC20_CONTRACT .*decimals\(\) could not be read/,
    );
    // Without a key, no key header.
    expect(fake.state.requests.at(-1)?.apiKey).toBeUndefined();
  });

  it('reads a transaction by id: the Transfer logs of the token it pays, its block, its outcome', async () => {
    const to = randomTronAddress();
    const block = fake.mine([
      { to, value: '12500000' },
      { to, value: '12500000', success: false },
      { to, value: '12500000', contract: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' },
    ]);
    const [paid, reverted, otherToken] = block.events.map((e) => e.transactionId);
    const at = { height: block.number, hash: block.blockID };
    // Staff may type the id in upper case; it is read and answered in lower case.
    expect(await adapter.findTransaction(String(paid).toUpperCase(), [])).toEqual({
      hash: paid,
      block: at,
      from: null,
      nonce: null,
      success: true,
      payments: [
        {
          txHash: paid,
          outputIndex: 0,
          matchKey: tronHex(to),
          assetId: 'USDT-TRC20',
          amountMinor: 12_500_000n,
        },
      ],
      spends: [],
      feeMinor: null,
    });
    expect(await adapter.findTransaction(String(reverted), [])).toMatchObject({
      block: at,
      success: false,
      payments: [],
    });
    expect(await adapter.findTransaction(String(otherToken), [])).toMatchObject({
      block: at,
      success: true,
      payments: [],
    });
    expect(await adapter.findTransaction('ab'.repeat(32), [])).toBeNull();
  });

  it('gives a block’s watched transactions as payout evidence, and waits for receipts it lacks', async () => {
    const to = randomTronAddress();
    const earlier = fake.mine([{ to, value: '1000000' }]);
    const block = fake.mine([
      { to, value: '2000000' },
      { to: randomTronAddress(), value: '3000000' },
    ]);
    const ref = await adapter.blockAt(block.number);
    if (!ref) throw new Error('block missing');
    const watched = block.events[0]?.transactionId ?? '';
    const watch = {
      hashes: new Set([watched, earlier.events[0]?.transactionId ?? '']),
      outpoints: new Set<string>(),
      sender: null,
    };
    const evidence = await adapter.payoutEvidence(ref, watch);
    expect(evidence.map((tx) => [tx.hash, tx.block, tx.payments[0]?.amountMinor])).toEqual([
      [watched, { height: block.number, hash: block.blockID }, 2_000_000n],
    ]);
    // In the block but without a receipt yet: asked again later, never read as "not there".
    fake.state.noReceipts = true;
    await expect(adapter.payoutEvidence(ref, watch)).rejects.toThrow(/no receipt yet/);
    fake.state.noReceipts = false;
    // The block was replaced since it was read.
    fake.rewind(block.number);
    fake.mine();
    await expect(adapter.payoutEvidence(ref, watch)).rejects.toThrow(/no longer/);
  });

  it('never sends a transaction: TRON payouts are paid outside Coffer', async () => {
    await expect(adapter.broadcast('00')).rejects.toThrow(/does not send TRON transactions/);
    expect(await adapter.inMempool('ab'.repeat(32))).toBe(false);
  });
});
