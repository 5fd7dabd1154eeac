import { ASSETS, formatAmount, PERMISSION_ROLES, type TAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { PayoutNode } from '../chains';
import type { Outbox } from '../outbox';
import type { WithdrawalsService } from '../withdrawals';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';

/**
 * What the parts of one chain's payout settlement share (`createPayoutSettlement` builds it
 * once per watched chain): the chain, its node, and where settled payouts are written.
 */
export type SettlementContext = {
  pool: pg.Pool;
  chain: 'bitcoin' | 'ethereum' | 'tron';
  node: PayoutNode | null;
  /** Ethereum's payout address (lower-case): its other transactions may take a nonce. */
  sender: string | null;
  /** Ethereum: the payout address's nonces on the node, to see a gap (`nonceGap`). */
  nonces?: { nonceOf(address: string, tag: 'latest' | 'pending'): Promise<number> } | null;
  withdrawals: Pick<WithdrawalsService, 'settle'>;
  audit: AuditLog;
  /** Staff are mailed, in the block's transaction, when a completed payout leaves the chain. */
  outbox?: Pick<Outbox, 'mailMany'>;
  /** `typed_hash_expiry_hours` is read from here (24 when absent). */
  settings?: { all(client?: pg.PoolClient): Promise<Map<string, string>> };
  /** The back office's address, for the links in staff mails. */
  publicUrl?: string;
  log: Logger;
};

/**
 * What went wrong while settling a block's payouts, one line each: the watcher records
 * them for `chain-status` and goes on (each was rolled back alone, `isolated`).
 */
export type SettlementProblems = string[];

/**
 * Runs one payout's (or one transaction's) settlement in a savepoint of the block's
 * transaction: a failure undoes only it, is logged and noted in `problems`, and the block's
 * other deposits and payouts go on, so one bad row never holds the watcher at a height.
 */
export async function isolated(
  ctx: SettlementContext,
  client: TxClient,
  problems: SettlementProblems,
  what: string,
  work: () => Promise<void>,
): Promise<void> {
  await payoutsRepo.savepoint(client, 'begin');
  try {
    await work();
    await payoutsRepo.savepoint(client, 'release');
  } catch (err) {
    await payoutsRepo.savepoint(client, 'undo');
    const message = err instanceof Error ? err.message : String(err);
    ctx.log.error(
      { chain: ctx.chain, err: message, what },
      'a payout could not be settled: left as it was, the watcher goes on',
    );
    problems.push(`Settling ${what} failed: ${message}`);
  }
}

/** Payouts the chain proved cannot be paid as sent: approved again, with the reason, audited. */
export async function returned(
  ctx: SettlementContext,
  client: TxClient,
  ids: string[],
  reason: string,
  targetId: string,
) {
  if (ids.length === 0) return;
  // Only payouts never completed move: a completed one is flagged instead (`reversed`).
  const moved = await payoutsRepo.returnToApproved(client, ids, reason);
  if (moved.length === 0) return;
  await ctx.audit.record(client, {
    actorId: null,
    action: 'payouts.returned',
    targetType: 'payout_batch',
    targetId,
    targetUserId: null,
    before: { payouts: moved },
    after: { state: 'approved' },
    reason,
    ip: null,
  });
}

/** Who is mailed when a completed payout leaves the chain: payout approvers and owners. */
export const REVERSED_MAIL_ROLES: readonly string[] = [
  ...new Set<string>([...PERMISSION_ROLES['payouts.approve'], 'owner']),
];

/**
 * Completed payouts (their ledger rows completed) whose transaction the chain proved can no
 * longer confirm: never approved again by Coffer alone. Each is flagged 'reversed-on-chain',
 * audited, and staff are mailed in the same transaction; they re-send its signed bytes or
 * return it by a two-person decision.
 */
export async function reversed(
  ctx: SettlementContext,
  client: TxClient,
  payouts: PayoutRow[],
  reason: string,
) {
  const ids = payouts.map((p) => p.transaction_id);
  const moved = new Set(await payoutsRepo.setReversedOnChain(client, ids, reason));
  const flagged = payouts.filter((p) => moved.has(p.transaction_id));
  if (flagged.length === 0) return;
  for (const p of flagged) {
    ctx.log.error(
      { chain: ctx.chain, payout: p.transaction_id, tx: p.tx_hash },
      'a completed payout left the chain for good: reversed-on-chain, for staff',
    );
  }
  const staff = await payoutsRepo.staffEmailsWithRoles(client, REVERSED_MAIL_ROLES);
  const lines = flagged.map((p) => {
    const asset = ASSETS[p.asset_id as TAssetId];
    const amount = asset
      ? `${formatAmount(p.amount_minor, asset.decimals, { minFractionDigits: 0, maxFractionDigits: asset.decimals })} ${asset.symbol}`
      : p.amount_minor.toString();
    return `- payout ${p.transaction_id}: ${amount} to ${p.address}, transaction ${p.tx_hash ?? 'unknown'}`;
  });
  await ctx.outbox?.mailMany(
    client,
    staff.map((to) => ({
      to,
      subject: `A completed ${ctx.chain} payout left the chain: staff must decide`,
      text: [
        `${flagged.length === 1 ? 'A completed payout' : `${flagged.length} completed payouts`} on ${ctx.chain} can no longer confirm:`,
        '',
        ...lines,
        '',
        reason,
        '',
        'The customer was debited and Coffer will not pay it again by itself: re-send its signed transaction, or return it to approved through a two-person decision.',
        ...(ctx.publicUrl ? ['', `Payouts: ${ctx.publicUrl}/dashboard/admin/payouts`] : []),
      ].join('\n'),
    })),
  );
  // Last, as the audit log asks: it holds the chain's lock until the block commits.
  for (const p of flagged) {
    await ctx.audit.record(client, {
      actorId: null,
      action: 'payouts.reversed',
      targetType: 'payout',
      targetId: p.transaction_id,
      targetUserId: null,
      before: { state: p.state, txHash: p.tx_hash, batchId: p.batch_id },
      after: { state: 'reversed-on-chain' },
      reason,
      ip: null,
    });
  }
}
