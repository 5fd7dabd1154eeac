import type { TxClient } from '@server/db/tx';
import type { BlockRef, ChainTransaction, PayoutWatch } from '../chains';
import { rollBack, settleBlock, watched } from './settlement-block';
import type { SettlementContext } from './settlement-context';
import { resendUnmined } from './settlement-resend';

/**
 * The chain watcher's side of payouts, composed: a block's evidence settles payouts by their
 * output (the transaction, the output or log index, the address and the amount must all
 * match), a spend or a nonce Coffer did not build marks a conflict, and a payout returns
 * to approved only once that conflict has the chain's confirmations. Each hook is its own
 * file taking the shared context (`settlement-context.ts`).
 */

export type PayoutHooks = {
  /** What to look for in blocks; null when nothing is live. Read after the block is. */
  watch(): Promise<PayoutWatch | null>;
  /**
   * A block's evidence, in the block's transaction. What failed (each undone alone) or needs
   * staff is returned, one line each, for the watcher to record; the block goes on.
   */
  onBlock(
    client: TxClient,
    block: BlockRef,
    evidence: ChainTransaction[],
    required: number,
  ): Promise<string[]>;
  onRollBack(client: TxClient, toHeight: number): Promise<void>;
  /**
   * After a tick: a signed transaction that left the mempool is sent again, same bytes, in
   * nonce order; an Ethereum nonce gap is looked for. What needs staff, one line each.
   */
  afterTick(): Promise<string[]>;
};

export function createPayoutSettlement(deps: SettlementContext): PayoutHooks {
  const ctx = deps;
  return {
    watch: () => watched(ctx),
    onBlock: (client, block, evidence, required) =>
      settleBlock(ctx, client, block, evidence, required),
    onRollBack: (client, toHeight) => rollBack(ctx, client, toHeight),
    afterTick: () => resendUnmined(ctx),
  };
}
