import {
  ADMIN_TX_MSG,
  assetById,
  normalizeTxHash,
  parseAmount,
  type TStepUp,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import {
  bitcoinScriptOf,
  type ChainTransaction,
  chainOfAsset,
  ethereumMatchKeyOf,
  tronMatchKeyOf,
} from '../chains';
import { type TransactionRow, trimDecimal } from '../ledger';
import { CANCELLED_FOR_STAFF, isCancelledByOwner } from '../withdrawals';
import { payoutsRepository as payoutsRepo } from './payouts.repository';

import {
  PAYOUT_MSG,
  type PayoutActor,
  type PayoutsContext,
  type PayoutsDeps,
  UUID,
} from './payouts-context';
import { addressOfKey, decimalOf, paysText } from './payouts-view';

/**
 * The rules that tie a withdrawal's ledger row to its payout: four-eyes approval, what a
 * rejection, an edit or a hand completion may do once it is approved, and hand completion
 * checked against the chain.
 */

/** What approving and completing by hand need beyond the shared context. */
export type ApprovalContext = PayoutsContext &
  Pick<PayoutsDeps, 'stepUp' | 'withdrawals' | 'outbox' | 'changes'>;

/** The match key of an address on its chain, as the watcher reads payments. */
function matchKeyOf(ctx: PayoutsContext, chain: string, address: string): string | null {
  if (chain === 'bitcoin') return bitcoinScriptOf(address, ctx.chains.bitcoinNetwork);
  if (chain === 'ethereum') return ethereumMatchKeyOf(address);
  if (chain === 'tron') return tronMatchKeyOf(address);
  return null;
}

export function assertFourEyes(actorId: string, row: TransactionRow) {
  if (
    row.created_by === actorId ||
    row.updated_by === actorId ||
    row.editor_ids.includes(actorId)
  ) {
    throw new AppError('FORBIDDEN', ADMIN_TX_MSG.fourEyes);
  }
}

async function lockWithdrawal(client: TxClient, id: string): Promise<TransactionRow> {
  const row = await payoutsRepo.lockWithdrawal(client, id);
  if (!row) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
  if (row.status === 'completed')
    throw new AppError('CONFLICT', 'This withdrawal was already completed.');
  if (row.status === 'failed') {
    throw new AppError(
      'CONFLICT',
      isCancelledByOwner(row) ? CANCELLED_FOR_STAFF : 'This withdrawal was already rejected.',
    );
  }
  return row;
}

/**
 * Who may decide a customer's payout: never the customer themselves (a staff member's own
 * account), never who created or edited it (four eyes), and never who proposed or
 * approved a manual credit or adjustment of that customer in the last 30 days: one person
 * could otherwise mint a balance on an account they control and pay it out with another's
 * innocent help.
 */
export async function assertMayDecide(
  ctx: Pick<ApprovalContext, 'changes'>,
  client: TxClient,
  staffId: string,
  row: TransactionRow,
): Promise<void> {
  if (row.user_id === staffId) throw new AppError('FORBIDDEN', ADMIN_TX_MSG.ownPayout);
  assertFourEyes(staffId, row);
  await ctx.changes.assertNotFunder(client, staffId, row.user_id);
}

/**
 * Four eyes: an admin who neither created nor edited a crypto withdrawal approves it,
 * with a step-up; it is then what a batch pays, or what staff complete by hash. One
 * step after the customer's own request, but not by a recent funder of the customer
 * (`assertMayDecide`).
 */
export async function approve(
  ctx: ApprovalContext,
  actor: PayoutActor,
  id: string,
  stepUp: TStepUp,
): Promise<void> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
  await withTransaction(ctx.pool, async (client) => {
    const row = await lockWithdrawal(client, id);
    await assertMayDecide(ctx, client, actor.id, row);
    if (row.transaction_type === 'bank_transfer')
      throw new AppError('CONFLICT', PAYOUT_MSG.bankNotApproved);
    if (await payoutsRepo.lockPayout(client, id))
      throw new AppError('CONFLICT', PAYOUT_MSG.alreadyApproved);
    const chain = chainOfAsset(row.asset_id);
    const asset = assetById(row.asset_id);
    const address = row.withdrawal_address ?? '';
    const matchKey = chain ? matchKeyOf(ctx, chain, address) : null;
    if (!chain || !asset || !matchKey) {
      throw new AppError(
        'CONFLICT',
        'This withdrawal has no address Coffer can pay on its chain: reject it.',
      );
    }
    await payoutsRepo.insertPayout(client, {
      transactionId: id,
      chain,
      assetId: row.asset_id,
      address,
      matchKey,
      amountMinor: parseAmount(row.crypto_amount, asset.decimals),
      approvedBy: actor.id,
    });
    await ctx.stepUp.confirm(client, actor.session, stepUp, actor.client);
    await ctx.audit.record(client, {
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
}

/** Refuses a rejection or a hand completion once a batch may pay the payout. */
export async function assertOffChain(
  client: pg.PoolClient,
  row: TransactionRow,
  forCompletion: boolean,
) {
  if (row.transaction_type !== 'withdrawal') return;
  const payout = await payoutsRepo.lockPayout(client, row.id);
  if (payout && payout.state !== 'approved') throw new AppError('CONFLICT', PAYOUT_MSG.onChain);
  if (forCompletion && !payout) throw new AppError('CONFLICT', PAYOUT_MSG.notApproved);
}

/**
 * A rejected withdrawal leaves the payouts waiting for a batch: its hold is released, so
 * an approval left behind would pay out money the customer has back.
 */
export async function beforeReject(client: pg.PoolClient, row: TransactionRow) {
  if (row.transaction_type !== 'withdrawal') return;
  const payout = await payoutsRepo.lockPayout(client, row.id);
  if (payout && payout.state !== 'approved') throw new AppError('CONFLICT', PAYOUT_MSG.onChain);
  if (payout) await payoutsRepo.dropApproved(client, row.id);
}

/**
 * An approved withdrawal is paid as it was approved (a batch pays the approved address
 * and amount): an Edit afterwards would change what nobody approved.
 */
export async function assertNotApproved(client: pg.PoolClient, row: TransactionRow) {
  if (row.transaction_type !== 'withdrawal') return;
  if (await payoutsRepo.lockPayout(client, row.id))
    throw new AppError('CONFLICT', PAYOUT_MSG.approvedNoEdit);
}

/** The refusal naming the payout that already holds a transaction's output. */
function claimedBy(holder: { transaction_id: string; state: string }): string {
  return `This transaction's output is already claimed by payout ${holder.transaction_id} (${holder.state}): one output settles one payout. The payout stays held.`;
}

/**
 * Coffer's own payout transaction pays the payouts of its batch and no other: typed for
 * another payout of the same address and amount, it would settle two payouts with one
 * transfer.
 */
async function assertNotCoffers(client: TxClient, chain: string, hash: string) {
  const own = await payoutsRepo.ownTransaction(client, chain, hash);
  if (!own) return;
  const pays = own.payouts.length > 0 ? ` It pays payout ${own.payouts.join(', ')}.` : '';
  throw new AppError(
    'CONFLICT',
    `This is Coffer's own payout transaction (batch ${own.batch_id}): the watcher settles it.${pays} The payout stays held.`,
  );
}

/** A hand completion by hash, checked against the chain: what applying it writes. */
export type HandCompletion = {
  hash: string;
  seen: ChainTransaction | null | 'unwatched';
  paying: { outputIndex: number } | null;
};

/**
 * Staff say an approved payout was paid outside Coffer, with the transaction's hash: checked
 * in the caller's transaction, writing nothing (a two-person completion checks at its
 * proposal and again at its approval). On a watched chain the transaction must pay the
 * payout's address exactly its amount: one that pays something else is refused, saying
 * what it pays; one the chain does not show yet will wait ('manual') for the watcher.
 * Unwatched chains accept it as 'unverified'. Each of `staff` must be someone who may
 * decide the payout (`assertMayDecide`). The node is asked before any row is locked.
 */
export async function checkByHash(
  ctx: ApprovalContext,
  client: TxClient,
  id: string,
  reference: string,
  staff: readonly string[],
): Promise<HandCompletion> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
  const [known] = await payoutsRepo.payoutsOf(client, [id]);
  if (!known) {
    // Not approved, or not a crypto withdrawal: the row's own checks answer.
    const row = await lockWithdrawal(client, id);
    for (const staffId of staff) await assertMayDecide(ctx, client, staffId, row);
    throw new AppError('CONFLICT', PAYOUT_MSG.notApproved);
  }
  if (reference.trim() === '') throw new AppError('VALIDATION_FAILED', ADMIN_TX_MSG.hashRequired);
  const hash = normalizeTxHash(known.asset_id, reference);
  if (!hash.ok) throw new AppError('VALIDATION_FAILED', hash.message);
  await assertNotCoffers(client, known.chain, hash.value);
  const node = ctx.nodeOf(known.chain);
  const recent = await payoutsRepo.recentBlockHashes(client, known.chain);
  const seen: ChainTransaction | null | 'unwatched' = node
    ? await ctx.fromNode(known.chain, () => node.findTransaction(hash.value, recent))
    : 'unwatched';
  const claims = await payoutsRepo.claimsOfHash(client, known.chain, hash.value, id);
  let paying: { outputIndex: number } | null = null;
  if (seen === 'unwatched' || seen === null) {
    // Nothing to tell outputs apart by: a hash another payout names settles no second one
    // here (on a watched chain the watcher sorts typed hashes into outputs once mined).
    const [other] = claims;
    if (seen === 'unwatched' && other) throw new AppError('CONFLICT', claimedBy(other));
  } else {
    const pays = seen.success
      ? seen.payments.filter((p) => p.assetId === known.asset_id || known.chain === 'bitcoin')
      : [];
    const matches = pays.filter(
      (p) => p.matchKey === known.match_key && p.amountMinor === known.amount_minor,
    );
    const match = matches.find((p) => !claims.some((c) => c.output_index === p.outputIndex));
    const [holder] = claims.filter((c) => matches.some((m) => m.outputIndex === c.output_index));
    if (!match && holder) throw new AppError('CONFLICT', claimedBy(holder));
    if (!match) {
      const what =
        pays.length === 0
          ? 'nothing in this asset'
          : pays
              .slice(0, 5)
              .map(
                (p) =>
                  `${decimalOf(known.asset_id, p.amountMinor)} to ${addressOfKey(known.chain, p.matchKey, ctx.chains.bitcoinNetwork)}`,
              )
              .join(', ');
      throw new AppError(
        'VALIDATION_FAILED',
        `This transaction pays ${what}, not ${paysText(known.asset_id, known.amount_minor, known.address)}. The payout stays held.`,
      );
    }
    paying = { outputIndex: match.outputIndex };
  }
  const row = await lockWithdrawal(client, id);
  for (const staffId of staff) await assertMayDecide(ctx, client, staffId, row);
  const payout = await payoutsRepo.lockPayout(client, id);
  if (payout?.state !== 'approved') throw new AppError('CONFLICT', PAYOUT_MSG.onChain);
  return { hash: hash.value, seen, paying };
}

/**
 * Records a checked hand completion (`checkByHash`, in the same transaction): settled at
 * once on an unwatched chain, else waiting for the watcher to see it confirm. The row
 * before and after, for the caller's audit.
 */
export async function completeByHashIn(
  ctx: ApprovalContext,
  client: TxClient,
  id: string,
  done: HandCompletion,
  processedBy: string,
): Promise<{ before: TransactionRow; after: TransactionRow }> {
  const before = await lockWithdrawal(client, id);
  const payout = await payoutsRepo.lockPayout(client, id);
  if (payout?.state !== 'approved') throw new AppError('CONFLICT', PAYOUT_MSG.onChain);
  const { seen, hash } = done;
  // Checked again under the row locks: a completion of another payout by the same hash
  // approved meanwhile holds the output (the unique claim index is the last word).
  const claims = await payoutsRepo.claimsOfHash(
    client,
    payout.chain,
    seen === 'unwatched' || !seen ? hash : seen.hash,
    id,
  );
  const holder = claims.find((c) =>
    seen === 'unwatched' || !seen ? true : c.output_index === (done.paying?.outputIndex ?? null),
  );
  if (holder && (seen === 'unwatched' || done.paying))
    throw new AppError('CONFLICT', claimedBy(holder));
  await claimOnce(async () => {
    if (seen === 'unwatched') {
      await payoutsRepo.setPayoutState(client, id, { state: 'unverified', txHash: hash });
      return;
    }
    await payoutsRepo.setPayoutState(client, id, {
      state: seen?.block ? 'confirming' : 'manual',
      txHash: seen?.hash ?? (payout.chain === 'bitcoin' ? hash.toLowerCase() : hash),
      outputIndex: done.paying?.outputIndex ?? null,
      block: seen?.block ?? null,
      networkFeeMinor: seen?.feeMinor ?? null,
    });
  });
  await payoutsRepo.markTyped(client, id);
  if (seen === 'unwatched') {
    const after = await ctx.withdrawals.settle(client, id, { transactionHash: hash, processedBy });
    await payoutsRepo.markCompleted(client, id);
    return { before, after };
  }
  return { before, after: before };
}

/** A write that claims an output: the unique claim index's refusal is a 409, not a 500. */
async function claimOnce(write: () => Promise<void>) {
  try {
    await write();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e?.code === '23505' && e.constraint === 'payouts_output_claim_key') {
      throw new AppError(
        'CONFLICT',
        'This transaction’s output was claimed by another payout meanwhile: one output settles one payout. The payout stays held.',
      );
    }
    throw err;
  }
}
