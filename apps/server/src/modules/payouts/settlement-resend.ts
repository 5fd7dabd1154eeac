import type pg from 'pg';
import { payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import type { SettlementContext } from './settlement-context';

/**
 * After a watcher's tick: a signed transaction that left the mempool (a node restarted, or
 * evicted it) is sent again, the same bytes, until the chain settles it; lowest nonce
 * first, as a node takes an address's transactions only in nonce order. Then an Ethereum
 * nonce gap is looked for (`nonceGap`). Returns what staff must see, one line each.
 */
export async function resendUnmined(ctx: SettlementContext): Promise<string[]> {
  const { chain, node } = ctx;
  if (!node) return [];
  // `unmined` orders by nonce (Bitcoin's have none), then by age.
  for (const c of await batchesRepo.unmined(ctx.pool, chain)) {
    if (!c.tx_hash || !c.signed_hex) continue;
    try {
      if (await node.inMempool(c.tx_hash)) continue;
      const outcome = await node.broadcast(c.signed_hex);
      if (outcome === 'sent') {
        // Taken: a refusal shown on the Payouts screen is over.
        await batchesRepo.noteSendOutcome(ctx.pool, c.id, null);
        ctx.log.info(
          { chain, tx: c.tx_hash, nonce: c.nonce },
          'payout transaction re-sent (same bytes)',
        );
      }
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      ctx.log.warn(
        { chain, tx: c.tx_hash, err: reason },
        'payout transaction could not be re-sent',
      );
      // The node's reason, for staff beside the batch (a node that did not answer says so too).
      await batchesRepo.noteSendOutcome(ctx.pool, c.id, reason).catch(() => {});
    }
  }
  if (!ctx.nonces || !ctx.sender) return [];
  const gap = await nonceGap(ctx.pool, ctx.nonces, ctx.sender);
  if (!gap) return [];
  ctx.log.warn({ chain, ...gap }, 'Ethereum payout nonce gap');
  return [nonceGapText(gap)];
}

/** Nonces no transaction uses below Coffer's lowest live one: everything above waits. */
export type NonceGap = {
  /** The payout address's next nonce on the chain (its mined transactions). */
  chainNonce: number;
  /** The lowest nonce of Coffer's signed, unmined transactions. */
  lowestLive: number;
  /** The nonces nothing holds, from the chain's on. */
  missing: number[];
};

/**
 * An Ethereum nonce gap of the payout address: the chain's nonce is below Coffer's lowest
 * live signed transaction, and no live transaction (signed or not) holds the chain's nonce
 * (one the operator sent from elsewhere and not yet mined shows here too until it is). Such
 * transactions are never mined until the gap is
 * filled: the next build takes the free nonces (`ethereum-batch-builder.ts`), or staff
 * resolve it. Null when there is none.
 */
export async function nonceGap(
  db: pg.Pool | pg.PoolClient,
  node: { nonceOf(address: string, tag: 'latest'): Promise<number> },
  address: string,
): Promise<NonceGap | null> {
  const live = await batchesRepo.liveNonces(db, 'ethereum');
  const broadcast = live.filter((c) => c.state === 'broadcast').map((c) => c.nonce);
  if (broadcast.length === 0) return null;
  const lowestLive = Math.min(...broadcast);
  const chainNonce = await node.nonceOf(address, 'latest');
  if (chainNonce >= lowestLive) return null;
  const held = new Set(live.map((c) => c.nonce));
  if (held.has(chainNonce)) return null;
  const missing: number[] = [];
  for (let n = chainNonce; n < lowestLive; n++) if (!held.has(n)) missing.push(n);
  return { chainNonce, lowestLive, missing };
}

/** A nonce gap as staff read it (chain-status, the log). */
export function nonceGapText(gap: NonceGap): string {
  const list =
    gap.missing.length > 10 ? `${gap.missing.slice(0, 10).join(', ')}, …` : gap.missing.join(', ');
  return `Ethereum nonce gap: the payout address's nonce on the chain is ${gap.chainNonce} but Coffer's lowest sent transaction uses ${gap.lowestLive}; no transaction holds nonce ${list}, so the later ones wait in the node's queue. Build a batch (it takes the free nonces) or resolve it on the Payouts screen.`;
}
