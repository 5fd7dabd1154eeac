import {
  ADMIN_TX_MSG,
  assetById,
  formatAmount,
  normalizeTxHash,
  parseAmount,
  type TAssetId,
  type TBatchState,
  type TPayoutBatch,
  type TPayoutChain,
  type TPayoutItem,
  type TPayoutState,
  type TPayoutsOverview,
  type TStepUp,
} from '@coffer/shared';
import { bytesToHex } from '@noble/hashes/utils.js';
import type pg from 'pg';
import type { Logger } from 'pino';
import { type TxClient, withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Client } from '../../lib/client-of';
import { crashNow, faultArmed } from '../../lib/test-fault';
import type { AuditLog } from '../audit';
import type { BitcoinAdapter, EthereumAdapter, TronAdapter } from '../chains';
import {
  type BitcoinNetwork,
  bitcoinAddressOfScript,
  bitcoinP2wpkh,
  bitcoinScriptOf,
  type ChainConfigs,
  type ChainTransaction,
  CONFIRMATIONS_SETTING,
  chainOfAsset,
  ethereumMatchKeyOf,
  publicKeyAtChain,
  tronAddressFromHex,
  tronMatchKeyOf,
} from '../chains';
import { type TransactionRow, trimDecimal } from '../ledger';
import type { Outbox } from '../outbox';
import { SETTING_DEFAULTS } from '../settings';
import type { StepUpSubject } from '../step-up';
import type { WithdrawalsService } from '../withdrawals';
import {
  type BuiltBitcoinBatch,
  buildBitcoinBatch,
  bumpBitcoinBatch,
  checkSignedBitcoin,
  type KeyOrigin,
} from './bitcoin-psbt';
import {
  buildEthereumEntry,
  checkSignedEthereum,
  type EthPayoutEntry,
  type EthPayoutFile,
  estimatePayoutGas,
  parseEthereumSubmission,
  payoutAddressOf,
  readEthereumFees,
} from './ethereum-payout-tx';
import { PayoutFileError } from './payout-file-error';
import {
  type BatchRow,
  type CandidateRow,
  type PayoutListRow,
  type PayoutRow,
  payoutsRepository as repo,
} from './payouts.repository';

/** Who acts: the audit row's actor and address, and the session a step-up confirms. */
export type PayoutActor = {
  id: string;
  ip: string | null;
  session: StepUpSubject;
  client: Client;
};

export type PayoutsDeps = {
  pool: pg.Pool;
  chains: ChainConfigs;
  /** BTC_KEY_ORIGIN: the master fingerprint and account path signers derive from. */
  keyOrigin: KeyOrigin | null;
  bitcoin: BitcoinAdapter | null;
  ethereum: EthereumAdapter | null;
  /** Reads only: a TRON payout's typed hash is verified, never sent by Coffer. */
  tron: TronAdapter | null;
  withdrawals: Pick<WithdrawalsService, 'settle'>;
  audit: AuditLog;
  outbox: Pick<Outbox, 'deliver'>;
  stepUp: {
    confirm(
      client: pg.PoolClient,
      session: StepUpSubject,
      proof: TStepUp,
      who: Client,
    ): Promise<void>;
  };
  settings: { all(client?: pg.PoolClient): Promise<Map<string, string>> };
  log: Logger;
};

const BATCHES_SHOWN = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The assets each built chain pays. */
const CHAIN_ASSETS: Record<TPayoutChain, readonly TAssetId[]> = {
  bitcoin: ['BTC'],
  ethereum: ['ETH', 'USDT-ERC20'],
};

export const PAYOUT_MSG = {
  notApproved:
    'Approve this withdrawal first: a second admin approves it, then it is paid in a batch or completed with its hash.',
  alreadyApproved: 'This withdrawal is already approved.',
  onChain:
    'This withdrawal is in a payout batch: it can no longer be rejected or completed by hand. It returns to approved only if the chain proves its transaction cannot confirm.',
  bankNotApproved: 'Bank transfers are completed with the bank’s reference; they are not approved.',
  approvedNoEdit:
    'This withdrawal is approved: it is paid as approved. To change it, reject it and record a new one.',
  noneWaiting: 'No approved payouts are waiting on this chain.',
  notConfigured: 'This chain’s node and key are not configured: its payouts are completed by hash.',
  batchNotFound: 'Payout batch not found.',
} as const;

function setting(settings: Map<string, string>, key: string): number {
  const value = settings.get(key) ?? SETTING_DEFAULTS.find((d) => d.key === key)?.value ?? 'NaN';
  return Number(value);
}

function decimalOf(assetId: string, minor: bigint | string | null): string | null {
  if (minor === null) return null;
  const asset = assetById(assetId);
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  return asset
    ? formatAmount(value, asset.decimals, {
        minFractionDigits: 0,
        maxFractionDigits: asset.decimals,
      })
    : value.toString();
}

/**
 * An address as staff know it, from the watcher's key for it: a Bitcoin output script as
 * its address on BTC_NETWORK, TRON's 41… hex as T…; Ethereum's key is the address.
 */
function addressOfKey(chain: string, key: string, network: BitcoinNetwork = 'mainnet'): string {
  try {
    if (chain === 'tron') return tronAddressFromHex(key);
    if (chain === 'bitcoin') return bitcoinAddressOfScript(key, network) ?? key;
  } catch {
    // Not a form Coffer writes: shown as the chain gave it.
  }
  return key;
}

/** 0.5 BTC to bcrt1… */
function paysText(assetId: string, minor: bigint, address: string): string {
  return `${decimalOf(assetId, minor)} ${assetById(assetId)?.symbol ?? assetId} to ${address}`;
}

const CHAIN_NAMES: Record<string, string> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
  tron: 'TRON',
};

/** The fee asset of a chain. */
const FEE_ASSET: Record<string, TAssetId> = { bitcoin: 'BTC', ethereum: 'ETH', tron: 'USDT-TRC20' };

export function createPayoutsService(deps: PayoutsDeps) {
  const { pool } = deps;
  const bitcoinConfig = deps.chains.bitcoin;
  const ethereumConfig = deps.chains.ethereum;
  const payoutAddress = ethereumConfig ? payoutAddressOf(ethereumConfig.account) : null;

  /** The match key of an address on its chain, as the watcher reads payments. */
  function matchKeyOf(chain: string, address: string): string | null {
    if (chain === 'bitcoin') return bitcoinScriptOf(address, deps.chains.bitcoinNetwork);
    if (chain === 'ethereum') return ethereumMatchKeyOf(address);
    if (chain === 'tron') return tronMatchKeyOf(address);
    return null;
  }

  /**
   * A call to a chain's node: one that does not answer is a 503 for the caller (try again),
   * never a 500, and nothing was changed (the callers ask before they write).
   */
  async function fromNode<T>(chain: string, act: () => Promise<T>): Promise<T> {
    try {
      return await act();
    } catch (err) {
      if (err instanceof AppError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      deps.log.warn({ chain, err: message }, 'chain node call failed');
      throw new AppError(
        'UNAVAILABLE',
        `The ${CHAIN_NAMES[chain] ?? chain} node did not answer (${message.slice(0, 300)}); nothing was changed. Try again.`,
      );
    }
  }

  function nodeOf(chain: string) {
    if (chain === 'bitcoin') return deps.bitcoin;
    if (chain === 'ethereum') return deps.ethereum;
    if (chain === 'tron') return deps.tron;
    return null;
  }

  async function required(chain: string, client?: pg.PoolClient): Promise<number> {
    const key = CONFIRMATIONS_SETTING[chain as 'bitcoin' | 'ethereum' | 'tron'];
    const n = setting(await deps.settings.all(client), key);
    return Number.isInteger(n) && n >= 1 ? n : 1;
  }

  function assertFourEyes(actorId: string, row: TransactionRow) {
    if (
      row.created_by === actorId ||
      row.updated_by === actorId ||
      row.editor_ids.includes(actorId)
    ) {
      throw new AppError('FORBIDDEN', ADMIN_TX_MSG.fourEyes);
    }
  }

  async function lockWithdrawal(client: TxClient, id: string): Promise<TransactionRow> {
    const { rows } = await client.query<TransactionRow>(
      `SELECT * FROM transactions WHERE id = $1 AND transaction_type IN ('withdrawal', 'bank_transfer')
          AND deleted_at IS NULL FOR UPDATE`,
      [id],
    );
    const row = rows[0];
    if (!row) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
    if (row.status === 'completed')
      throw new AppError('CONFLICT', 'This withdrawal was already completed.');
    if (row.status === 'failed')
      throw new AppError('CONFLICT', 'This withdrawal was already rejected.');
    return row;
  }

  // ----------------------------------------------------------------- presenting

  function presentItem(
    row: PayoutRow & { email?: string },
    height: number | null,
    need: number,
  ): TPayoutItem {
    const confirmations =
      row.block_height !== null && height !== null ? Math.max(0, height - row.block_height + 1) : 0;
    return {
      id: row.transaction_id,
      customerEmail: row.email ?? '',
      assetId: row.asset_id,
      amount: decimalOf(row.asset_id, row.amount_minor) ?? '0',
      address: row.address,
      state: row.state as TPayoutState,
      approvedAt: row.approved_at.toISOString(),
      approvedBy: row.approved_by,
      txHash: row.tx_hash,
      confirmations: Math.min(confirmations, need),
      required: need,
      networkFee: decimalOf(FEE_ASSET[row.chain] ?? 'BTC', row.network_fee_minor),
      waitingReason: row.waiting_reason,
    };
  }

  function fileNameOf(batch: BatchRow): string {
    return `${batch.chain}-payouts-${batch.id.slice(0, 8)}.${batch.chain === 'bitcoin' ? 'psbt' : 'json'}`;
  }

  function presentBatch(
    batch: BatchRow,
    candidates: CandidateRow[],
    items: TPayoutItem[],
  ): TPayoutBatch {
    const live =
      candidates.find((c) => c.state === 'mined') ??
      candidates.filter((c) => c.state === 'broadcast').at(-1) ??
      candidates.at(-1);
    const feeMinor =
      batch.chain === 'bitcoin'
        ? (live?.fee_minor ?? null)
        : candidates
            .filter((c) => ['unsigned', 'broadcast', 'mined'].includes(c.state))
            .reduce((sum, c) => sum + BigInt(c.fee_minor ?? '0'), 0n)
            .toString();
    return {
      id: batch.id,
      chain: batch.chain as TPayoutChain,
      state: batch.state as TBatchState,
      createdAt: batch.created_at.toISOString(),
      createdBy: batch.created_by,
      txHashes: candidates.flatMap((c) => (c.tx_hash && c.signed_hex ? [c.tx_hash] : [])),
      fee: decimalOf(FEE_ASSET[batch.chain] ?? 'BTC', feeMinor),
      feeRate: batch.chain === 'bitcoin' ? (live?.fee_rate ?? null) : null,
      payouts: items,
      fileName: fileNameOf(batch),
    };
  }

  async function batchView(db: pg.Pool | pg.PoolClient, batch: BatchRow): Promise<TPayoutBatch> {
    const [candidates, rows, height, need] = await Promise.all([
      repo.candidatesOf(db, [batch.id]),
      repo.listed(db, batch.chain, [batch.id]),
      repo.cursorHeight(db, batch.chain),
      required(batch.chain),
    ]);
    return presentBatch(
      batch,
      candidates,
      rows.filter((r) => r.batch_id === batch.id).map((r) => presentItem(r, height, need)),
    );
  }

  // ----------------------------------------------------------------- building

  async function buildBitcoin(client: TxClient, actorId: string | null, approved: PayoutRow[]) {
    const node = deps.bitcoin;
    if (!node || !bitcoinConfig) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
    const settings = await deps.settings.all(client);
    const cap = setting(settings, 'max_fee_rate_btc');
    const feeRate = await fromNode('bitcoin', () =>
      node.feeRate(setting(settings, 'fee_target_blocks_btc')),
    );
    if (feeRate > cap) {
      throw new AppError(
        'CONFLICT',
        `The node’s fee rate is ${feeRate} sat/vB, above the cap of ${cap} sat/vB: no batch was built.`,
      );
    }
    // Only outputs still unspent on the chain (the operator may have moved some).
    const spendable = [];
    for (const o of await repo.spendable(client)) {
      if (!(await fromNode('bitcoin', () => node.isUnspent(o.tx_hash, o.output_index)))) continue;
      const key = publicKeyAtChain(bitcoinConfig.account, o.change, o.derivation_index);
      spendable.push({
        txid: o.tx_hash,
        vout: o.output_index,
        amount: BigInt(o.amount_minor),
        script: bitcoinP2wpkh(key, bitcoinConfig.network).script,
        change: o.change,
        index: o.derivation_index,
        publicKey: bytesToHex(key),
      });
    }
    const changeIndex = await repo.nextChangeIndex(client);
    const changeKey = publicKeyAtChain(bitcoinConfig.account, 1, changeIndex);
    const built = buildBitcoinBatch({
      spendable,
      payouts: approved.map((p) => ({
        id: p.transaction_id,
        script: p.match_key,
        amount: BigInt(p.amount_minor),
      })),
      feeRate,
      change: {
        index: changeIndex,
        script: bitcoinP2wpkh(changeKey, bitcoinConfig.network).script,
        publicKey: bytesToHex(changeKey),
      },
      accountFingerprint: bitcoinConfig.account.fingerprint,
      keyOrigin: deps.keyOrigin,
    });
    if (!built) {
      const total = spendable.reduce((s, o) => s + o.amount, 0n);
      throw new AppError(
        'CONFLICT',
        `The spendable outputs (${decimalOf('BTC', total)} BTC in ${spendable.length}) do not cover the oldest approved payout and its fee: fund the wallet or wait for deposits.`,
      );
    }
    const batch = await repo.insertBatch(client, {
      chain: 'bitcoin',
      createdBy: actorId,
      changeIndex,
    });
    await repo.insertCandidate(client, {
      batchId: batch.id,
      chain: 'bitcoin',
      txHash: built.txid,
      unsigned: built.psbt,
      built: { ...built, psbt: undefined },
      nonce: null,
      feeMinor: built.fee,
      feeRate: built.feeRate,
      replaces: null,
    });
    await repo.reserveInputs(client, batch.id, built.inputs);
    await repo.putInBatch(
      client,
      batch.id,
      built.payouts.map((p) => p.id),
    );
    await repo.setWaitingReasons(
      client,
      built.skipped.map((s) => ({
        id: s.id,
        reason: 'The spendable outputs did not cover it with the others: it waits for funds.',
      })),
    );
    return batch;
  }

  async function buildEthereum(client: TxClient, actorId: string | null, approved: PayoutRow[]) {
    const node = deps.ethereum;
    if (!node || !ethereumConfig || !payoutAddress)
      throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
    const settings = await deps.settings.all(client);
    const cap = setting(settings, 'max_fee_per_gas_eth');
    let fees: Awaited<ReturnType<typeof readEthereumFees>>;
    try {
      fees = await readEthereumFees(node.publicClient, cap);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Above the cap is the operator's to decide; anything else is the node not answering.
      if (!/above the cap/.test(message)) return fromNode('ethereum', () => Promise.reject(err));
      throw new AppError('CONFLICT', `${message}: no payouts were built.`);
    }
    const [chainId, pending, highest, balances] = await Promise.all([
      fromNode('ethereum', () => node.chainId()),
      fromNode('ethereum', () => node.nonceOf(payoutAddress, 'pending')),
      repo.highestLiveNonce(client, 'ethereum'),
      fromNode('ethereum', () => node.balancesOf(payoutAddress)),
    ]);
    let nonce = Math.max(pending, highest === null ? 0 : highest + 1);
    let eth = balances.eth;
    let usdt = balances.usdt;
    const entries: Array<{ payout: PayoutRow; entry: EthPayoutEntry; fee: bigint }> = [];
    const skipped: Array<{ id: string; reason: string }> = [];
    for (const p of approved) {
      const amount = BigInt(p.amount_minor);
      const assetId = p.asset_id as 'ETH' | 'USDT-ERC20';
      if (assetId === 'USDT-ERC20' && amount > usdt) {
        skipped.push({
          id: p.transaction_id,
          reason: 'The payout address holds too little USDT: fund it.',
        });
        continue;
      }
      let gas: bigint;
      try {
        gas = await estimatePayoutGas(node.publicClient, {
          from: payoutAddress,
          assetId,
          recipient: p.address,
          amount,
          usdtContract: node.tokenContract,
        });
      } catch {
        skipped.push({
          id: p.transaction_id,
          reason: 'The node could not estimate its gas (funds?).',
        });
        continue;
      }
      const maxFee = gas * fees.maxFeePerGas;
      const ethNeeded = maxFee + (assetId === 'ETH' ? amount : 0n);
      if (ethNeeded > eth) {
        skipped.push({
          id: p.transaction_id,
          reason: 'The payout address holds too little ETH for it and its gas: fund it.',
        });
        continue;
      }
      eth -= ethNeeded;
      if (assetId === 'USDT-ERC20') usdt -= amount;
      entries.push({
        payout: p,
        fee: maxFee,
        entry: buildEthereumEntry({
          payoutId: p.transaction_id,
          assetId,
          recipient: p.address,
          amount,
          usdtContract: node.tokenContract,
          from: payoutAddress,
          nonce: nonce++,
          gas,
          fees,
          chainId,
        }),
      });
    }
    if (entries.length === 0) {
      throw new AppError(
        'CONFLICT',
        `No approved payout could be built: ${skipped[0]?.reason ?? 'nothing fits'}`,
      );
    }
    const batch = await repo.insertBatch(client, {
      chain: 'ethereum',
      createdBy: actorId,
      changeIndex: null,
    });
    for (const e of entries) {
      await repo.insertCandidate(client, {
        batchId: batch.id,
        chain: 'ethereum',
        txHash: null,
        unsigned: JSON.stringify(e.entry),
        built: { payoutId: e.payout.transaction_id },
        nonce: e.entry.nonce,
        feeMinor: e.fee,
        feeRate: null,
        replaces: null,
      });
    }
    await repo.putInBatch(
      client,
      batch.id,
      entries.map((e) => e.payout.transaction_id),
    );
    await repo.setWaitingReasons(client, skipped);
    return batch;
  }

  /** The file a signer signs: the newest unsigned PSBT, or every entry of the batch. */
  function fileOf(batch: BatchRow, candidates: CandidateRow[]): string {
    if (batch.chain === 'bitcoin') {
      const unsigned = candidates.filter((c) => c.state === 'unsigned').at(-1) ?? candidates.at(-1);
      if (!unsigned) throw new Error(`batch ${batch.id} has no transaction`);
      return unsigned.unsigned;
    }
    const file: EthPayoutFile = {
      kind: 'coffer-ethereum-payouts',
      version: 1,
      batchId: batch.id,
      entries: candidates
        .filter((c) => c.state === 'unsigned')
        .map((c) => JSON.parse(c.unsigned) as EthPayoutEntry),
    };
    return `${JSON.stringify(file, null, 2)}\n`;
  }

  // ----------------------------------------------------------------- submitting

  /**
   * Checks a signed file against what Coffer built, records each transaction's hash and
   * signed bytes (committed before anything is sent), then sends them. Every transaction in
   * the file must pass before any is recorded. A transaction already recorded is not sent
   * again: submitting a file twice broadcasts once.
   */
  async function submitSigned(
    actor: {
      id: string | null;
      ip: string | null;
      stepUp?: (client: pg.PoolClient) => Promise<void>;
    },
    chain: TPayoutChain,
    text: string,
    batchId: string | null,
  ): Promise<{ batch: TPayoutBatch; sent: string[]; alreadySent: string[] }> {
    const node = nodeOf(chain);
    if (!node) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
    const found = batchId ?? (await findBatch(chain, text));
    if (!found || !UUID.test(found)) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
    const toSend: Array<{ id: string; hex: string; hash: string }> = [];
    const already: string[] = [];
    await withTransaction(pool, async (client) => {
      const batch = await repo.lockBatch(client, found);
      if (!batch || batch.chain !== chain)
        throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
      if (batch.state === 'abandoned' || batch.state === 'completed') {
        throw new AppError('CONFLICT', `This batch is ${batch.state}: nothing was sent.`);
      }
      const candidates = await repo.lockCandidates(client, batch.id);
      const checked =
        chain === 'bitcoin'
          ? [checkBitcoin(candidates, text)]
          : await checkEthereum(candidates, text);
      await actor.stepUp?.(client);
      for (const c of checked) {
        if (c.candidate.state !== 'unsigned') {
          already.push(c.hash);
          continue;
        }
        await repo.recordSigned(client, c.candidate.id, c.hash, c.hex);
        toSend.push({ id: c.candidate.id, hex: c.hex, hash: c.hash });
      }
      if (toSend.length > 0) {
        if (batch.state === 'built') await repo.setBatchState(client, batch.id, 'broadcast');
        for (const p of await repo.payoutsOfBatch(client, batch.id)) {
          const mine = toSend.find((s) =>
            chain === 'bitcoin'
              ? true
              : (candidates.find((c) => c.id === s.id)?.built as { payoutId?: string })
                  ?.payoutId === p.transaction_id,
          );
          if (mine && p.state === 'in-batch') {
            await repo.setPayoutState(client, p.transaction_id, {
              state: 'broadcast',
              txHash: mine.hash,
            });
          }
        }
        await deps.audit.record(client, {
          actorId: actor.id,
          action: 'payouts.submit',
          targetType: 'payout_batch',
          targetId: batch.id,
          targetUserId: null,
          before: { state: batch.state },
          after: { state: 'broadcast', transactions: toSend.map((s) => s.hash) },
          reason: null,
          ip: actor.ip,
        });
      }
    });
    const sent: string[] = [];
    for (const s of toSend) {
      try {
        await node.broadcast(s.hex);
        if (faultArmed('kill-after-broadcast')) crashNow();
        await repo.noteSent(pool, s.id);
        sent.push(s.hash);
      } catch (err) {
        // Recorded, so never built or paid again: the watcher re-sends the same bytes.
        deps.log.warn(
          { chain, tx: s.hash, err: err instanceof Error ? err.message : String(err) },
          'payout broadcast failed; it is re-sent with the same bytes until the chain settles it',
        );
      }
    }
    const batch = await repo.batch(pool, found);
    if (!batch) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
    return { batch: await batchView(pool, batch), sent, alreadySent: already };
  }

  /** The batch a signed file belongs to, when the caller does not say (the CLI). */
  async function findBatch(chain: TPayoutChain, text: string): Promise<string | null> {
    if (chain === 'ethereum') {
      const parsedFile = tryJson(text);
      if (parsedFile && typeof parsedFile === 'object' && 'batchId' in parsedFile) {
        const id = (parsedFile as { batchId: unknown }).batchId;
        return typeof id === 'string' ? id : null;
      }
      const [first] = parseEthereumSubmission(text);
      if (!first) return null;
      const { parseTransaction } = await import('viem');
      const nonce = parseTransaction(first.signed as `0x${string}`).nonce;
      return nonce === undefined ? null : repo.batchOfCandidate(pool, chain, { nonce });
    }
    for (const c of await repo.candidatesOfChain(pool, 'bitcoin')) {
      try {
        const checked = checkSignedBitcoin(c.unsigned, text);
        if (checked.txid === c.tx_hash) return c.batch_id;
      } catch {
        // Not this batch's.
      }
    }
    return null;
  }

  function checkBitcoin(candidates: CandidateRow[], text: string) {
    // The newest unsigned candidate first (a fee bump), then any already sent.
    const order = [
      ...candidates.filter((c) => c.state === 'unsigned').reverse(),
      ...candidates.filter((c) => c.state !== 'unsigned'),
    ];
    let firstError: PayoutFileError | null = null;
    for (const candidate of order) {
      try {
        const checked = checkSignedBitcoin(candidate.unsigned, text);
        if (['replaced', 'conflicted'].includes(candidate.state)) {
          throw new PayoutFileError([`this transaction is ${candidate.state}; nothing was sent`]);
        }
        return { candidate, hash: checked.txid, hex: checked.hex };
      } catch (err) {
        if (!(err instanceof PayoutFileError)) throw err;
        firstError ??= err;
      }
    }
    throw refusal(firstError ?? new PayoutFileError(['the batch has no transaction to sign']));
  }

  async function checkEthereum(candidates: CandidateRow[], text: string) {
    if (!payoutAddress) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
    let submitted: ReturnType<typeof parseEthereumSubmission>;
    try {
      submitted = parseEthereumSubmission(text);
    } catch (err) {
      throw refusal(err);
    }
    const { parseTransaction } = await import('viem');
    const out: Array<{ candidate: CandidateRow; hash: string; hex: string }> = [];
    const differences: string[] = [];
    for (const s of submitted) {
      let nonce: number | undefined;
      try {
        nonce = parseTransaction(s.signed as `0x${string}`).nonce;
      } catch {
        differences.push('a transaction in the file cannot be read');
        continue;
      }
      const candidate = candidates.find((c) => c.nonce === nonce);
      if (!candidate) {
        differences.push(`no transaction of this batch uses nonce ${nonce}`);
        continue;
      }
      try {
        const checked = await checkSignedEthereum(
          JSON.parse(candidate.unsigned) as EthPayoutEntry,
          s.signed as `0x${string}`,
          payoutAddress,
        );
        if (['replaced', 'conflicted'].includes(candidate.state)) {
          differences.push(`nonce ${nonce}'s transaction is ${candidate.state}`);
          continue;
        }
        out.push({ candidate, hash: checked.hash, hex: checked.raw });
      } catch (err) {
        if (!(err instanceof PayoutFileError)) throw err;
        differences.push(...err.differences.map((d) => `nonce ${nonce}: ${d}`));
      }
    }
    if (differences.length > 0) throw refusal(new PayoutFileError(differences));
    if (out.length === 0)
      throw refusal(new PayoutFileError(['the file holds no signed transaction']));
    return out;
  }

  return {
    payoutAddress,

    /**
     * Four eyes: an admin who neither created nor edited a crypto withdrawal approves it,
     * with a step-up; it is then what a batch pays, or what staff complete by hash.
     */
    async approve(actor: PayoutActor, id: string, stepUp: TStepUp): Promise<void> {
      if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
      await withTransaction(pool, async (client) => {
        const row = await lockWithdrawal(client, id);
        assertFourEyes(actor.id, row);
        if (row.transaction_type === 'bank_transfer')
          throw new AppError('CONFLICT', PAYOUT_MSG.bankNotApproved);
        if (await repo.lockPayout(client, id))
          throw new AppError('CONFLICT', PAYOUT_MSG.alreadyApproved);
        const chain = chainOfAsset(row.asset_id);
        const asset = assetById(row.asset_id);
        const address = row.withdrawal_address ?? '';
        const matchKey = chain ? matchKeyOf(chain, address) : null;
        if (!chain || !asset || !matchKey) {
          throw new AppError(
            'CONFLICT',
            'This withdrawal has no address Coffer can pay on its chain: reject it.',
          );
        }
        await repo.insertPayout(client, {
          transactionId: id,
          chain,
          assetId: row.asset_id,
          address,
          matchKey,
          amountMinor: parseAmount(row.crypto_amount, asset.decimals),
          approvedBy: actor.id,
        });
        await deps.stepUp.confirm(client, actor.session, stepUp, actor.client);
        await deps.audit.record(client, {
          actorId: actor.id,
          action: 'withdrawal.approve',
          targetType: 'transaction',
          targetId: id,
          targetUserId: row.user_id,
          before: { status: row.status, payout: null },
          after: {
            status: row.status,
            payout: 'approved',
            chain,
            address,
            amount: trimDecimal(row.crypto_amount),
            assetId: row.asset_id,
          },
          reason: null,
          ip: actor.ip,
        });
      });
    },

    /** A payout's state for the admin screens (by ledger row id). */
    async statesOf(ids: string[]): Promise<Map<string, PayoutRow>> {
      return new Map((await repo.payoutsOf(pool, ids)).map((p) => [p.transaction_id, p]));
    },

    /** Refuses a rejection or a hand completion once a batch may pay the payout. */
    async assertOffChain(client: pg.PoolClient, row: TransactionRow, forCompletion: boolean) {
      if (row.transaction_type !== 'withdrawal') return;
      const payout = await repo.lockPayout(client, row.id);
      if (payout && payout.state !== 'approved') throw new AppError('CONFLICT', PAYOUT_MSG.onChain);
      if (forCompletion && !payout) throw new AppError('CONFLICT', PAYOUT_MSG.notApproved);
    },

    /**
     * A rejected withdrawal leaves the payouts waiting for a batch: its hold is released, so
     * an approval left behind would pay out money the customer has back.
     */
    async beforeReject(client: pg.PoolClient, row: TransactionRow) {
      if (row.transaction_type !== 'withdrawal') return;
      const payout = await repo.lockPayout(client, row.id);
      if (payout && payout.state !== 'approved') throw new AppError('CONFLICT', PAYOUT_MSG.onChain);
      if (payout) await repo.dropApproved(client, row.id);
    },

    /**
     * An approved withdrawal is paid as it was approved (a batch pays the approved address
     * and amount): an Edit afterwards would change what nobody approved.
     */
    async assertNotApproved(client: pg.PoolClient, row: TransactionRow) {
      if (row.transaction_type !== 'withdrawal') return;
      if (await repo.lockPayout(client, row.id))
        throw new AppError('CONFLICT', PAYOUT_MSG.approvedNoEdit);
    },

    /**
     * Staff completed an approved payout with the hash of a payment made outside Coffer.
     * On a watched chain the transaction must pay the payout's address exactly its amount:
     * one that pays something else is refused, saying what it pays; one the chain does not
     * show yet waits ('manual') for the watcher. Unwatched chains accept it as 'unverified'.
     */
    async completeByHash(
      actor: PayoutActor,
      id: string,
      reference: string,
      stepUp: TStepUp,
      record: (
        client: pg.PoolClient,
        before: TransactionRow,
        after: TransactionRow,
      ) => Promise<void>,
    ): Promise<void> {
      if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
      const first = await pool.query<PayoutRow>('SELECT * FROM payouts WHERE transaction_id = $1', [
        id,
      ]);
      const known = first.rows[0];
      if (!known) {
        // Not approved, or not a crypto withdrawal: the row's own checks answer.
        await withTransaction(pool, async (client) => {
          const row = await lockWithdrawal(client, id);
          assertFourEyes(actor.id, row);
          throw new AppError('CONFLICT', PAYOUT_MSG.notApproved);
        });
        return;
      }
      if (reference.trim() === '')
        throw new AppError('VALIDATION_FAILED', ADMIN_TX_MSG.hashRequired);
      const hash = normalizeTxHash(known.asset_id, reference);
      if (!hash.ok) throw new AppError('VALIDATION_FAILED', hash.message);
      const node = nodeOf(known.chain);
      // Read from the node before the transaction: no connection waits on the network.
      const recent = await repo.recentBlockHashes(pool, known.chain);
      const seen: ChainTransaction | null | 'unwatched' = node
        ? await fromNode(known.chain, () => node.findTransaction(hash.value, recent))
        : 'unwatched';
      let paying: { outputIndex: number } | null = null;
      if (seen && seen !== 'unwatched') {
        const pays = seen.success
          ? seen.payments.filter((p) => p.assetId === known.asset_id || known.chain === 'bitcoin')
          : [];
        const match = pays.find(
          (p) => p.matchKey === known.match_key && p.amountMinor === BigInt(known.amount_minor),
        );
        if (!match) {
          const what =
            pays.length === 0
              ? 'nothing in this asset'
              : pays
                  .slice(0, 5)
                  .map(
                    (p) =>
                      `${decimalOf(known.asset_id, p.amountMinor)} to ${addressOfKey(known.chain, p.matchKey, deps.chains.bitcoinNetwork)}`,
                  )
                  .join(', ');
          throw new AppError(
            'VALIDATION_FAILED',
            `This transaction pays ${what}, not ${paysText(known.asset_id, BigInt(known.amount_minor), known.address)}. The payout stays held.`,
          );
        }
        paying = { outputIndex: match.outputIndex };
      }
      await withTransaction(pool, async (client) => {
        const before = await lockWithdrawal(client, id);
        const payout = await repo.lockPayout(client, id);
        if (payout?.state !== 'approved') throw new AppError('CONFLICT', PAYOUT_MSG.onChain);
        await deps.stepUp.confirm(client, actor.session, stepUp, actor.client);
        if (seen === 'unwatched') {
          await repo.setPayoutState(client, id, { state: 'unverified', txHash: hash.value });
          const after = await deps.withdrawals.settle(client, id, {
            transactionHash: hash.value,
            processedBy: actor.id,
          });
          await record(client, before, after);
          return;
        }
        await repo.setPayoutState(client, id, {
          state: seen?.block ? 'confirming' : 'manual',
          txHash:
            seen?.hash ?? (payout.chain === 'bitcoin' ? hash.value.toLowerCase() : hash.value),
          outputIndex: paying?.outputIndex ?? null,
          block: seen?.block ?? null,
          networkFeeMinor: seen?.feeMinor ?? null,
        });
        await record(client, before, before);
      });
      await deps.outbox.deliver();
    },

    async overview(chain: TPayoutChain): Promise<TPayoutsOverview> {
      const configured = chain === 'bitcoin' ? deps.bitcoin !== null : deps.ethereum !== null;
      const batches = await repo.recentBatches(pool, chain, BATCHES_SHOWN);
      const ids = batches.map((b) => b.id);
      const [rows, candidates, height, need] = await Promise.all([
        repo.listed(pool, chain, ids),
        repo.candidatesOf(pool, ids),
        repo.cursorHeight(pool, chain),
        required(chain),
      ]);
      const items = (r: PayoutListRow) => presentItem(r, height, need);
      let address: string | null = null;
      const balances: TPayoutsOverview['balances'] = [];
      if (chain === 'ethereum' && deps.ethereum && payoutAddress) {
        address = payoutAddress;
        try {
          const b = await deps.ethereum.balancesOf(payoutAddress);
          balances.push(
            { assetId: 'ETH', amount: decimalOf('ETH', b.eth) ?? '0' },
            { assetId: 'USDT-ERC20', amount: decimalOf('USDT-ERC20', b.usdt) ?? '0' },
          );
        } catch (err) {
          deps.log.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'payout address balances unavailable',
          );
        }
      }
      if (chain === 'bitcoin' && deps.bitcoin) {
        const spendable = await repo.spendable(pool);
        balances.push({
          assetId: 'BTC',
          amount:
            decimalOf(
              'BTC',
              spendable.reduce((s, o) => s + BigInt(o.amount_minor), 0n),
            ) ?? '0',
        });
      }
      return {
        chain,
        configured,
        payoutAddress: address,
        balances,
        waiting: rows.filter((r) => r.state === 'approved').map(items),
        batches: batches.map((b) =>
          presentBatch(
            b,
            candidates.filter((c) => c.batch_id === b.id),
            rows.filter((r) => r.batch_id === b.id).map(items),
          ),
        ),
      };
    },

    /**
     * Builds a batch of the chain's approved payouts, oldest first. One build per chain at a
     * time (an advisory lock): parallel builds never put one payout in two live batches.
     */
    async build(
      actor: {
        id: string | null;
        ip: string | null;
        stepUp?: (client: pg.PoolClient) => Promise<void>;
      },
      chain: TPayoutChain,
    ): Promise<{ batch: TPayoutBatch; file: string }> {
      const built = await withTransaction(pool, async (client) => {
        await repo.lockBuild(client, chain);
        await actor.stepUp?.(client);
        const approved = await repo.lockApproved(client, chain, CHAIN_ASSETS[chain]);
        if (approved.length === 0) throw new AppError('CONFLICT', PAYOUT_MSG.noneWaiting);
        const batch =
          chain === 'bitcoin'
            ? await buildBitcoin(client, actor.id, approved)
            : await buildEthereum(client, actor.id, approved);
        const candidates = await repo.lockCandidates(client, batch.id);
        await deps.audit.record(client, {
          actorId: actor.id,
          action: 'payouts.build',
          targetType: 'payout_batch',
          targetId: batch.id,
          targetUserId: null,
          before: null,
          after: {
            chain,
            payouts: (await repo.payoutsOfBatch(client, batch.id)).map((p) => p.transaction_id),
            fee: candidates.reduce((s, c) => s + BigInt(c.fee_minor ?? '0'), 0n).toString(),
          },
          reason: null,
          ip: actor.ip,
        });
        return { batch, file: fileOf(batch, candidates) };
      });
      return { batch: await batchView(pool, built.batch), file: built.file };
    },

    /** The unsigned file of a batch (audited: it is what gets signed). */
    async file(
      actor: {
        id: string | null;
        ip: string | null;
        stepUp?: (client: pg.PoolClient) => Promise<void>;
      },
      batchId: string,
    ): Promise<{ fileName: string; content: string }> {
      if (!UUID.test(batchId)) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
      return withTransaction(pool, async (client) => {
        const batch = await repo.lockBatch(client, batchId);
        if (!batch) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
        await actor.stepUp?.(client);
        const candidates = await repo.lockCandidates(client, batch.id);
        await deps.audit.record(client, {
          actorId: actor.id,
          action: 'payouts.download',
          targetType: 'payout_batch',
          targetId: batch.id,
          targetUserId: null,
          before: null,
          after: { state: batch.state },
          reason: null,
          ip: actor.ip,
        });
        return { fileName: fileNameOf(batch), content: fileOf(batch, candidates) };
      });
    },

    submit: submitSigned,

    /** The chain of a batch, for a submit that names it (404 when there is none). */
    async chainOfBatch(batchId: string): Promise<TPayoutChain> {
      const batch = UUID.test(batchId) ? await repo.batch(pool, batchId) : null;
      if (!batch || (batch.chain !== 'bitcoin' && batch.chain !== 'ethereum'))
        throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
      return batch.chain;
    },

    /**
     * A Bitcoin fee bump: a replacement of the batch's transaction with the same inputs and
     * payments and a higher fee, taken from the change. Both stay candidates until one confirms.
     */
    async bump(
      actor: {
        id: string | null;
        ip: string | null;
        stepUp?: (client: pg.PoolClient) => Promise<void>;
      },
      batchId: string,
      feeRate: number,
    ): Promise<{ batch: TPayoutBatch; file: string }> {
      if (!UUID.test(batchId)) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
      const batch = await withTransaction(pool, async (client) => {
        const b = await repo.lockBatch(client, batchId);
        if (b?.chain !== 'bitcoin') throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
        if (b.state !== 'broadcast') {
          throw new AppError(
            'CONFLICT',
            'Only a broadcast batch that has not confirmed can be bumped.',
          );
        }
        const cap = setting(await deps.settings.all(client), 'max_fee_rate_btc');
        if (feeRate > cap) {
          throw new AppError(
            'VALIDATION_FAILED',
            `The fee rate is above the cap of ${cap} sat/vB.`,
          );
        }
        await actor.stepUp?.(client);
        const candidates = await repo.lockCandidates(client, b.id);
        const latest = candidates.filter((c) => c.state === 'broadcast').at(-1);
        if (!latest)
          throw new AppError('CONFLICT', 'This batch has no broadcast transaction to bump.');
        if (candidates.some((c) => c.state === 'unsigned')) {
          throw new AppError(
            'CONFLICT',
            'A fee bump of this batch is already waiting to be signed.',
          );
        }
        const built = latest.built as {
          change: { outputIndex: number } | null;
          payouts: unknown[];
        };
        let bumped: ReturnType<typeof bumpBitcoinBatch>;
        try {
          bumped = bumpBitcoinBatch(
            { psbt: latest.unsigned },
            feeRate,
            built.change?.outputIndex ?? null,
          );
        } catch (err) {
          throw new AppError('VALIDATION_FAILED', err instanceof Error ? err.message : String(err));
        }
        await repo.insertCandidate(client, {
          batchId: b.id,
          chain: 'bitcoin',
          txHash: bumped.txid,
          unsigned: bumped.psbt,
          built: {
            ...(latest.built as object),
            fee: bumped.fee,
            vsize: bumped.vsize,
            feeRate,
            txid: bumped.txid,
            change: built.change ? { ...built.change, amount: bumped.changeAmount } : null,
          },
          nonce: null,
          feeMinor: bumped.fee,
          feeRate,
          replaces: latest.id,
        });
        await deps.audit.record(client, {
          actorId: actor.id,
          action: 'payouts.bump',
          targetType: 'payout_batch',
          targetId: b.id,
          targetUserId: null,
          before: { feeRate: latest.fee_rate, tx: latest.tx_hash },
          after: { feeRate, tx: bumped.txid },
          reason: null,
          ip: actor.ip,
        });
        return b;
      });
      const candidates = await repo.candidatesOf(pool, [batch.id]);
      return { batch: await batchView(pool, batch), file: fileOf(batch, candidates) };
    },
  };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A refused file as the API answers it: a 400 with every difference named. */
function refusal(err: unknown): AppError {
  if (err instanceof PayoutFileError) return new AppError('VALIDATION_FAILED', err.message);
  if (err instanceof AppError) return err;
  return new AppError(
    'VALIDATION_FAILED',
    `The signed file cannot be read: ${err instanceof Error ? err.message : String(err)}`,
  );
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
export type { BuiltBitcoinBatch };
