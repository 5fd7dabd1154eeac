import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBase58check, hex } from '@scure/base';

const base58check = createBase58check(
  (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
);

/** A new random TRON account address, base58check of 0x41 + 20 bytes, as wallets show it. */
export function randomTronAddress(): string {
  return base58check.encode(Uint8Array.from([0x41, ...randomBytes(20)]));
}

/** The 41-hex form of a base58check TRON address. */
export function tronHex(base58: string): string {
  return hex.encode(base58check.decode(base58));
}

/** How the fake writes the addresses in an event's result (TronGrid itself writes '0x'). */
export type AddressForm = '0x' | '41' | 'base58';

export type FakeTransfer = {
  /** The recipient, base58check. */
  to: string;
  /** In the token's smallest unit, as TronGrid's decimal string. */
  value: string;
  from?: string;
  form?: AddressForm;
  /** Another contract's Transfer in the same block (the adapter must not count it). */
  contract?: string;
  /**
   * The transaction's id: one of an orphaned block included again on the new branch, or a
   * hash staff typed before the chain showed it.
   */
  transactionId?: string;
  /** False: the transfer call reverted (it paid nothing and emitted no event). */
  success?: boolean;
};

type FakeEvent = {
  transactionId: string;
  eventIndex: number;
  contract: string;
  from: string;
  to: string;
  value: string;
  form: AddressForm;
  success: boolean;
};

type FakeBlock = {
  number: number;
  blockID: string;
  parentHash: string;
  timestamp: number;
  events: FakeEvent[];
};

/** What the next answers do: answer, fail with 500, never answer, or answer broken JSON. */
export type FakeTronMode = 'ok' | 'http500' | 'hang' | 'badjson';

const GENESIS_PARENT = '0'.repeat(64);
const GENESIS_TIME = Date.UTC(2026, 0, 1);

function addressIn(form: AddressForm, base58: string): string {
  if (form === 'base58') return base58;
  const h = tronHex(base58);
  return form === '41' ? h : `0x${h.slice(2)}`;
}

/**
 * A local stand-in for TronGrid (there is no local TRON node): the node's /wallet API and
 * the /v1 contract events, in TronGrid's field names and shapes, over a scripted chain that
 * a test mines, reorganises and breaks.
 */
export async function startFakeTronGrid(options: { usdtContract: string; decimals?: number }) {
  const blocks: FakeBlock[] = [];
  const state = {
    mode: 'ok' as FakeTronMode,
    /** Events per page, at most the caller's limit (TronGrid's is 200). */
    pageSize: 200,
    decimals: options.decimals ?? 6,
    /** Answer every events page with this fingerprint again, as a broken API might. */
    loopFingerprint: false,
    /** Answer events with success false. */
    eventsFail: false,
    /** Put a value that is not a number into every event of the answer. */
    badEventValue: false,
    requests: [] as { method: string; path: string; apiKey: string | undefined }[],
    /** The events index has reached this block (null: every block), as TronGrid's trails. */
    indexedUpTo: null as number | null,
    /** Answer every receipt `{}`, as a node that has not stored a block's receipts yet. */
    noReceipts: false,
  };
  // A fork counter in the block hash: a block mined after a rewind differs from the one it replaces.
  let fork = 0;

  const blockId = (number: number) =>
    // A TRON block ID starts with the block number (8 bytes), then 24 bytes of the block's hash.
    number.toString(16).padStart(16, '0') +
    createHash('sha256')
      .update(`${number}/${fork}/${randomBytes(8).toString('hex')}`)
      .digest('hex')
      .slice(16);

  function mine(transfers: FakeTransfer[] = []): FakeBlock {
    const number = blocks.length;
    const parent = blocks[number - 1];
    const events: FakeEvent[] = transfers.map((t) => ({
      // Random, as real transaction ids are: two fakes in one database never share one.
      transactionId: t.transactionId ?? randomBytes(32).toString('hex'),
      // Each transfer its own transaction here, so its first (only) log.
      eventIndex: 0,
      contract: t.contract ?? options.usdtContract,
      from: t.from ?? randomTronAddress(),
      to: t.to,
      value: t.value,
      form: t.form ?? '0x',
      success: t.success ?? true,
    }));
    const block: FakeBlock = {
      number,
      blockID: blockId(number),
      parentHash: parent ? parent.blockID : GENESIS_PARENT,
      timestamp: GENESIS_TIME + number * 3000,
      events,
    };
    blocks.push(block);
    return block;
  }

  /** Drops the blocks from `height` on: the next mined blocks are a different branch. */
  function rewind(height: number) {
    blocks.length = height;
    fork++;
  }

  const blockJson = (b: FakeBlock) => ({
    blockID: b.blockID,
    block_header: {
      raw_data: {
        number: b.number,
        txTrieRoot: '0'.repeat(64),
        witness_address: '41928c9af0651632157ef27a2cf17ca72c575a4d21',
        parentHash: b.parentHash,
        version: 30,
        timestamp: b.timestamp,
      },
      witness_signature: '00'.repeat(65),
    },
    // Each transfer's own call of its token's `transfer`, as the node shows it.
    transactions: b.events.map((e) => ({
      ret: [{ contractRet: e.success ? 'SUCCESS' : 'REVERT' }],
      txID: e.transactionId,
      raw_data: {
        contract: [
          {
            type: 'TriggerSmartContract',
            parameter: {
              value: {
                owner_address: tronHex(e.from),
                contract_address: tronHex(e.contract),
                data: `a9059cbb${tronHex(e.to).slice(2).padStart(64, '0')}${BigInt(e.value).toString(16).padStart(64, '0')}`,
              },
              type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
            },
          },
        ],
      },
    })),
  });

  const eventJson = (b: FakeBlock, e: FakeEvent) => {
    const from = addressIn(e.form, e.from);
    const to = addressIn(e.form, e.to);
    const value = state.badEventValue ? 'NaN' : e.value;
    return {
      block_number: b.number,
      block_timestamp: b.timestamp,
      caller_contract_address: e.contract,
      contract_address: e.contract,
      event_index: e.eventIndex,
      event_name: 'Transfer',
      result: { '0': from, '1': to, '2': value, from, to, value },
      result_type: { from: 'address', to: 'address', value: 'uint256' },
      event: 'Transfer(address indexed from, address indexed to, uint256 value)',
      transaction_id: e.transactionId,
    };
  };

  /**
   * A transaction's receipt as `gettransactioninfobyid` gives it: the Transfer log of its
   * token (20-byte hex without 41, topics without 0x) when it succeeded; `{}` when no block
   * of the chain holds it, as the node answers for a transaction it has no receipt of.
   */
  const transactionInfoJson = (txId: string) => {
    for (const b of blocks) {
      const e = b.events.find((x) => x.transactionId === txId);
      if (!e) continue;
      const word = (h: string) => h.padStart(64, '0');
      return {
        id: e.transactionId,
        fee: 345_000,
        blockNumber: b.number,
        blockTimeStamp: b.timestamp,
        contractResult: [e.success ? word('1') : ''],
        contract_address: tronHex(e.contract),
        receipt: {
          energy_usage_total: 14_650,
          energy_fee: 345_000,
          net_usage: 345,
          result: e.success ? 'SUCCESS' : 'REVERT',
        },
        ...(e.success
          ? {
              log: [
                {
                  address: tronHex(e.contract).slice(2),
                  topics: [
                    'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
                    word(tronHex(e.from).slice(2)),
                    word(tronHex(e.to).slice(2)),
                  ],
                  data: word(BigInt(e.value).toString(16)),
                },
              ],
            }
          : { result: 'FAILED', resMessage: '5245564552540000' }),
      };
    }
    return {};
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const apiKey = req.headers['tron-pro-api-key'];
    state.requests.push({
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      apiKey: typeof apiKey === 'string' ? apiKey : undefined,
    });
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      if (state.mode === 'hang') return;
      if (state.mode === 'http500') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end('Internal Server Error');
      }
      const send = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const text = JSON.stringify(body);
        res.end(state.mode === 'badjson' ? text.slice(0, Math.floor(text.length / 2)) : text);
      };
      let body: Record<string, unknown> = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return send({ Error: 'class com.google.gson.stream.MalformedJsonException : bad request' });
      }
      if (req.method === 'POST' && url.pathname === '/wallet/getnowblock') {
        const top = blocks[blocks.length - 1];
        return send(top ? blockJson(top) : {});
      }
      if (req.method === 'POST' && url.pathname === '/wallet/getblockbynum') {
        const b = typeof body.num === 'number' ? blocks[body.num] : undefined;
        return send(b ? blockJson(b) : {});
      }
      if (req.method === 'POST' && url.pathname === '/wallet/gettransactioninfobyid') {
        const known = typeof body.value === 'string' && !state.noReceipts;
        return send(known ? transactionInfoJson(String(body.value)) : {});
      }
      if (req.method === 'POST' && url.pathname === '/wallet/triggerconstantcontract') {
        const known =
          body.contract_address === options.usdtContract && body.function_selector === 'decimals()';
        if (!known) return send({ result: { code: 'CONTRACT_VALIDATE_ERROR', message: '' } });
        return send({
          result: { result: true },
          energy_used: 222,
          constant_result: [state.decimals.toString(16).padStart(64, '0')],
          transaction: { ret: [{}], visible: true, txID: randomBytes(32).toString('hex') },
        });
      }
      const events = url.pathname.match(/^\/v1\/contracts\/([^/]+)\/events$/);
      if (req.method === 'GET' && events) {
        if (state.eventsFail)
          return send({ success: false, error: 'Too many requests', statusCode: 429 });
        const contract = decodeURIComponent(events[1] ?? '');
        const number = Number(url.searchParams.get('block_number'));
        const b = blocks[number];
        // A lagging event index answers a block it has not reached as empty.
        const indexed = state.indexedUpTo === null || number <= state.indexedUpTo;
        const all = (indexed ? (b?.events ?? []) : [])
          .filter(
            (e) =>
              e.success &&
              e.contract === contract &&
              url.searchParams.get('event_name') === 'Transfer',
          )
          .map((e) => eventJson(b as FakeBlock, e));
        const limit = Math.min(state.pageSize, Number(url.searchParams.get('limit') ?? 20));
        const fingerprint = url.searchParams.get('fingerprint');
        const offset = fingerprint ? Number(Buffer.from(fingerprint, 'base64url').toString()) : 0;
        const data = all.slice(offset, offset + limit);
        const more = offset + limit < all.length;
        const meta: Record<string, unknown> = { at: Date.now(), page_size: data.length };
        if (more || state.loopFingerprint) {
          const next = state.loopFingerprint
            ? 'c2FtZQ'
            : Buffer.from(String(offset + limit)).toString('base64url');
          const nextUrl = new URL(url);
          nextUrl.searchParams.set('fingerprint', next);
          meta.fingerprint = next;
          meta.links = { next: nextUrl.toString() };
        }
        return send({ data, success: true, meta });
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ Error: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  mine(); // genesis

  return {
    state,
    url: `http://127.0.0.1:${port}`,
    mine,
    rewind,
    block: (height: number) => blocks[height],
    tip: () => blocks.length - 1,
    /** What `gettransactioninfobyid` answers for `txId`. */
    transactionInfo: transactionInfoJson,
    /** The requests for events so far. */
    eventRequests: () => state.requests.filter((r) => r.path.startsWith('/v1/contracts/')),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeTronGrid = Awaited<ReturnType<typeof startFakeTronGrid>>;
