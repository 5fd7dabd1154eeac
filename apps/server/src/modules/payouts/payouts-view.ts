import {
  assetById,
  formatAmount,
  type TAssetId,
  type TBatchState,
  type TPayoutBatch,
  type TPayoutChain,
  type TPayoutItem,
  type TPayoutState,
  type TPayoutsOverview,
} from '@coffer/shared';
import type pg from 'pg';
import { type BitcoinNetwork, bitcoinAddressOfScript, tronAddressFromHex } from '../chains';
import type { EthPayoutEntry, EthPayoutFile } from './ethereum-payout-tx';
import {
  type BatchRow,
  payoutBatchesRepository as batchesRepo,
  type CandidateRow,
} from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import {
  type PayoutListRow,
  type PayoutRow,
  payoutsRepository as payoutsRepo,
} from './payouts.repository';
import type { PayoutsContext } from './payouts-context';
import { nonceGap, nonceGapText } from './settlement-resend';

/** Payouts as the admin screens and the API show them, and the files signers sign. */

const BATCHES_SHOWN = 20;

/** The fee asset of a chain. */
const FEE_ASSET: Record<string, TAssetId> = { bitcoin: 'BTC', ethereum: 'ETH', tron: 'USDT-TRC20' };

/** What a chain's fees are paid in: an ERC-20 payout's gas is ETH, never the token. */
function feeAssetOf(chain: string): TAssetId {
  return FEE_ASSET[chain] ?? 'BTC';
}

export function decimalOf(assetId: string, minor: bigint | string | null): string | null {
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
export function addressOfKey(
  chain: string,
  key: string,
  network: BitcoinNetwork = 'mainnet',
): string {
  try {
    if (chain === 'tron') return tronAddressFromHex(key);
    if (chain === 'bitcoin') return bitcoinAddressOfScript(key, network) ?? key;
  } catch {
    // Not a form Coffer writes: shown as the chain gave it.
  }
  return key;
}

/** 0.5 BTC to bcrt1… */
export function paysText(assetId: string, minor: bigint, address: string): string {
  return `${decimalOf(assetId, minor)} ${assetById(assetId)?.symbol ?? assetId} to ${address}`;
}

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
    networkFee: decimalOf(feeAssetOf(row.chain), row.network_fee_minor),
    networkFeeAsset: feeAssetOf(row.chain),
    waitingReason: row.waiting_reason,
  };
}

export function fileNameOf(batch: BatchRow): string {
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
          .reduce((sum, c) => sum + (c.fee_minor ?? 0n), 0n)
          .toString();
  return {
    id: batch.id,
    chain: batch.chain as TPayoutChain,
    state: batch.state as TBatchState,
    createdAt: batch.created_at.toISOString(),
    createdBy: batch.created_by,
    txHashes: candidates.flatMap((c) => (c.tx_hash && c.signed_hex ? [c.tx_hash] : [])),
    fee: decimalOf(feeAssetOf(batch.chain), feeMinor),
    feeAsset: feeAssetOf(batch.chain),
    feeRate: batch.chain === 'bitcoin' ? (live?.fee_rate ?? null) : null,
    payouts: items,
    fileName: fileNameOf(batch),
    // A refusal stays shown until a send is taken or the chain settles the transaction.
    sendErrors: candidates.flatMap((c) =>
      c.send_error !== null && c.state !== 'mined' && c.state !== 'replaced'
        ? [
            {
              txHash: c.tx_hash,
              nonce: c.nonce,
              message: c.send_error,
              at: (c.send_error_at ?? c.created_at).toISOString(),
            },
          ]
        : [],
    ),
  };
}

export async function batchView(
  ctx: PayoutsContext,
  db: pg.Pool | pg.PoolClient,
  batch: BatchRow,
): Promise<TPayoutBatch> {
  const [candidates, rows, height, need] = await Promise.all([
    batchesRepo.candidatesOf(db, [batch.id]),
    payoutsRepo.listed(db, batch.chain, [batch.id]),
    payoutsRepo.cursorHeight(db, batch.chain),
    ctx.required(batch.chain),
  ]);
  return presentBatch(
    batch,
    candidates,
    rows.filter((r) => r.batch_id === batch.id).map((r) => presentItem(r, height, need)),
  );
}

/** The file a signer signs: the newest unsigned PSBT, or every entry of the batch. */
export function fileOf(batch: BatchRow, candidates: CandidateRow[]): string {
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

/** A payout's state for the admin screens (by ledger row id). */
export async function statesOf(
  ctx: PayoutsContext,
  ids: string[],
): Promise<Map<string, PayoutRow>> {
  return new Map((await payoutsRepo.payoutsOf(ctx.pool, ids)).map((p) => [p.transaction_id, p]));
}

export async function overview(
  ctx: PayoutsContext,
  chain: TPayoutChain,
): Promise<TPayoutsOverview> {
  const { pool, payoutAddress } = ctx;
  const configured = chain === 'bitcoin' ? ctx.bitcoin !== null : ctx.ethereum !== null;
  const batches = await batchesRepo.recentBatches(pool, chain, BATCHES_SHOWN);
  const ids = batches.map((b) => b.id);
  const [rows, candidates, height, need, reversed] = await Promise.all([
    payoutsRepo.listed(pool, chain, ids),
    batchesRepo.candidatesOf(pool, ids),
    payoutsRepo.cursorHeight(pool, chain),
    ctx.required(chain),
    payoutsRepo.reversedOnChainRows(pool, chain),
  ]);
  const items = (r: PayoutListRow) => presentItem(r, height, need);
  let address: string | null = null;
  const balances: TPayoutsOverview['balances'] = [];
  if (chain === 'ethereum' && ctx.ethereum && payoutAddress) {
    address = payoutAddress;
    try {
      const b = await ctx.ethereum.balancesOf(payoutAddress);
      balances.push(
        { assetId: 'ETH', amount: decimalOf('ETH', b.eth) ?? '0' },
        { assetId: 'USDT-ERC20', amount: decimalOf('USDT-ERC20', b.usdt) ?? '0' },
      );
    } catch (err) {
      ctx.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'payout address balances unavailable',
      );
    }
  }
  let gap: TPayoutsOverview['nonceGap'] = null;
  if (chain === 'ethereum' && ctx.ethereum && payoutAddress) {
    try {
      const found = await nonceGap(pool, ctx.ethereum, payoutAddress);
      gap = found ? { ...found, message: nonceGapText(found) } : null;
    } catch (err) {
      // The screen still shows what the database holds; the watcher reports the node.
      ctx.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'payout address nonce unavailable',
      );
    }
  }
  if (chain === 'bitcoin' && ctx.bitcoin) {
    const spendable = await outputsRepo.spendable(pool);
    balances.push({
      assetId: 'BTC',
      amount:
        decimalOf(
          'BTC',
          spendable.reduce((s, o) => s + o.amount_minor, 0n),
        ) ?? '0',
    });
  }
  return {
    chain,
    configured,
    payoutAddress: address,
    balances,
    nonceGap: gap,
    reversed: reversed.map(items),
    waiting: rows.filter((r) => r.state === 'approved').map(items),
    batches: batches.map((b) =>
      presentBatch(
        b,
        candidates.filter((c) => c.batch_id === b.id),
        rows.filter((r) => r.batch_id === b.id).map(items),
      ),
    ),
  };
}
