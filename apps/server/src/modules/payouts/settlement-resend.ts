import { payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import type { SettlementContext } from './settlement-context';

/**
 * After a watcher's tick: a signed transaction that left the mempool (a node restarted, or
 * evicted it) is sent again, the same bytes, until the chain settles it.
 */
export async function resendUnmined(ctx: SettlementContext): Promise<void> {
  const { chain, node } = ctx;
  if (!node) return;
  for (const c of await batchesRepo.unmined(ctx.pool, chain)) {
    if (!c.tx_hash || !c.signed_hex) continue;
    try {
      if (await node.inMempool(c.tx_hash)) continue;
      const outcome = await node.broadcast(c.signed_hex);
      if (outcome === 'sent') {
        await batchesRepo.noteSent(ctx.pool, c.id);
        ctx.log.info({ chain, tx: c.tx_hash }, 'payout transaction re-sent (same bytes)');
      }
    } catch (err) {
      ctx.log.warn(
        { chain, tx: c.tx_hash, err: err instanceof Error ? err.message : String(err) },
        'payout transaction could not be re-sent',
      );
    }
  }
}
