import type { TPayoutChain, TPendingChange, TStepUp } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { CONFIRMATIONS_SETTING } from '../chains';
import type { TransactionRow } from '../ledger';
import type { StaffActor } from '../staff-changes';
import { bumpBitcoin } from './bitcoin-batch-builder';
import type { BuiltBitcoinBatch } from './bitcoin-psbt';
import { payoutAddressOf } from './ethereum-payout-tx';
import {
  type ApprovalContext,
  approve,
  assertMayDecide,
  assertNotApproved,
  assertOffChain,
  beforeReject,
  checkByHash,
  completeByHashIn,
  type HandCompletion,
} from './payout-approval';
import { abandonBatch, batchFile, buildBatch, chainOfBatch } from './payout-batches';
import {
  PAYOUT_RETURN,
  type ReturnPayload,
  resendReversed,
  returnPayoutKind,
} from './payout-reversed';
import { submitSigned } from './payout-submit';
import { type BatchActor, type PayoutActor, type PayoutsContext, setting } from './payouts-context';
import { overview, statesOf } from './payouts-view';

/**
 * Payouts on chain, composed: the shared context is built once here, and each part (approval,
 * batch builds, submits, the view) is its own file taking it.
 */

import type { PayoutsDeps } from './payouts-context';

export { PAYOUT_MSG, type PayoutActor, type PayoutsDeps } from './payouts-context';

const CHAIN_NAMES: Record<string, string> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
  tron: 'TRON',
};

export function createPayoutsService(deps: PayoutsDeps) {
  const ethereumConfig = deps.chains.ethereum;
  const ctx: PayoutsContext = {
    pool: deps.pool,
    chains: deps.chains,
    keyOrigin: deps.keyOrigin,
    bitcoin: deps.bitcoin,
    ethereum: deps.ethereum,
    payoutAddress: ethereumConfig ? payoutAddressOf(ethereumConfig.account) : null,
    audit: deps.audit,
    log: deps.log,

    nodeOf(chain) {
      if (chain === 'bitcoin') return deps.bitcoin;
      if (chain === 'ethereum') return deps.ethereum;
      if (chain === 'tron') return deps.tron;
      return null;
    },

    /**
     * A call to a chain's node: one that does not answer is a 503 for the caller (try again),
     * never a 500, and nothing was changed (the callers ask before they write).
     */
    async fromNode(chain, act) {
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
    },

    async required(chain, client) {
      const key = CONFIRMATIONS_SETTING[chain as 'bitcoin' | 'ethereum' | 'tron'];
      const n = setting(await deps.settings.all(client), key);
      return Number.isInteger(n) && n >= 1 ? n : 1;
    },

    settings: (client) => deps.settings.all(client),
  };
  const approval: ApprovalContext = {
    ...ctx,
    stepUp: deps.stepUp,
    withdrawals: deps.withdrawals,
    outbox: deps.outbox,
    changes: deps.changes,
  };
  // Paying a reversed payout again takes two people (payout-reversed.ts).
  deps.changes.register(returnPayoutKind(approval));

  return {
    payoutAddress: ctx.payoutAddress,
    approve: (actor: PayoutActor, id: string, stepUp: TStepUp) =>
      approve(approval, actor, id, stepUp),
    statesOf: (ids: string[]) => statesOf(ctx, ids),
    assertOffChain,
    beforeReject,
    assertNotApproved,
    /** Whether a staff member may decide this locked payout row (own, four eyes, funder). */
    assertMayDecide: (client: TxClient, staffId: string, row: TransactionRow) =>
      assertMayDecide(approval, client, staffId, row),
    /** A hand completion by hash checked, writing nothing (proposal and approval). */
    checkByHash: (client: TxClient, id: string, reference: string, staff: readonly string[]) =>
      checkByHash(approval, client, id, reference, staff),
    /** A checked hand completion recorded, in the caller's transaction. */
    completeByHashIn: (client: TxClient, id: string, done: HandCompletion, processedBy: string) =>
      completeByHashIn(approval, client, id, done, processedBy),
    overview: (chain: TPayoutChain) => overview(ctx, chain),
    build: (
      actor: BatchActor,
      chain: TPayoutChain,
      beforeCommit?: (file: string) => Promise<void> | void,
    ) => buildBatch(ctx, actor, chain, beforeCommit),
    file: (actor: BatchActor, batchId: string) => batchFile(ctx, actor, batchId),
    submit: (actor: BatchActor, chain: TPayoutChain, text: string, batchId: string | null) =>
      submitSigned(ctx, actor, chain, text, batchId),
    chainOfBatch: (batchId: string) => chainOfBatch(ctx, batchId),
    bump: (actor: BatchActor, batchId: string, feeRate: number) =>
      bumpBitcoin(ctx, actor, batchId, feeRate),
    /** A built batch nobody signed, abandoned: its payouts approved again, inputs and nonces free. */
    abandon: (actor: BatchActor, batchId: string) => abandonBatch(ctx, actor, batchId),
    /** A reversed payout's recorded signed transaction sent again, the same bytes. */
    resend: (actor: BatchActor, payoutId: string) => resendReversed(ctx, actor, payoutId),
    /** Proposes paying a reversed payout again; another staff member approves it. */
    proposeReturn: (
      actor: StaffActor,
      payoutId: string,
      reason: string,
      stepUp: TStepUp,
    ): Promise<TPendingChange> =>
      deps.changes.propose<ReturnPayload>(actor, PAYOUT_RETURN, { id: payoutId, reason }, stepUp),
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
export type { BuiltBitcoinBatch, HandCompletion };
