import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { PayoutNode } from '../chains';
import type { WithdrawalsService } from '../withdrawals';
import { payoutsRepository as payoutsRepo } from './payouts.repository';

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
  withdrawals: Pick<WithdrawalsService, 'settle'>;
  audit: AuditLog;
  log: Logger;
};

/** Payouts the chain proved cannot be paid as sent: approved again, with the reason, audited. */
export async function returned(
  ctx: SettlementContext,
  client: TxClient,
  ids: string[],
  reason: string,
  targetId: string,
) {
  if (ids.length === 0) return;
  await payoutsRepo.returnToApproved(client, ids, reason);
  await ctx.audit.record(client, {
    actorId: null,
    action: 'payouts.returned',
    targetType: 'payout_batch',
    targetId,
    targetUserId: null,
    before: { payouts: ids },
    after: { state: 'approved' },
    reason,
    ip: null,
  });
}
