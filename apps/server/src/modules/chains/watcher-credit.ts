import { ASSETS, formatAmount, type TAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import {
  type ChainDeposit,
  chainDepositsRepository as deposits,
} from './chain-deposits.repository';
import { chainLedgerRepository as ledgerRows } from './chain-ledger.repository';
import type { WatcherContext } from './watcher-context';

/** Completes the deposits that reached `required` confirmations at `height`, each once. */
export async function creditConfirmed(
  ctx: WatcherContext,
  client: TxClient,
  height: number,
  required: number,
): Promise<void> {
  const { chain, deps } = ctx;
  const waiting = await deposits.confirmingUsers(client, chain);
  if (waiting.length > 0) await deps.onConfirmations?.(client, waiting);
  const due = (await deposits.dueDeposits(client, chain, height, required)).filter(
    (d) => d.transaction_id,
  );
  if (due.length === 0) return;
  const completed = await deps.ledger.completeDeposits(
    client,
    due.map((d) => d.transaction_id as string),
  );
  await deposits.markCredited(
    client,
    due.map((d) => d.id),
  );
  // A mail for each deposit that reached the balance here (not one staff settled by hand).
  const done = new Set(completed.map((r) => r.id));
  const arrived = due.filter((d) => d.transaction_id && done.has(d.transaction_id));
  await mailArrivals(ctx, client, arrived);
  for (const d of due) {
    deps.log.info(
      { chain, deposit: d.id, transaction: d.transaction_id, confirmations: d.confirmations },
      done.has(d.transaction_id as string)
        ? 'chain deposit credited'
        : 'chain deposit confirmed; its ledger row was already settled by staff',
    );
  }
}

/** Tells each customer that their deposit is confirmed and in their balance. */
async function mailArrivals(ctx: WatcherContext, client: TxClient, arrived: ChainDeposit[]) {
  const emails = await ledgerRows.emailsOf(client, [...new Set(arrived.map((d) => d.user_id))]);
  await ctx.deps.outbox.mailMany(
    client,
    arrived.flatMap((d) => {
      const to = emails.get(d.user_id);
      if (!to) return [];
      const asset = ASSETS[d.asset_id as TAssetId];
      const amount = formatAmount(d.amount_minor, asset.decimals, {
        minFractionDigits: 0,
        maxFractionDigits: asset.decimals,
      });
      return [
        {
          to,
          subject: `Your ${asset.symbol} deposit has arrived`,
          text: [
            `Your deposit of ${amount} ${asset.symbol} is confirmed and now in your balance.`,
            '',
            `Transaction hash: ${d.tx_hash}`,
            `Confirmations: ${d.confirmations}`,
            '',
            `Your history: ${ctx.deps.publicUrl}/dashboard/history`,
          ].join('\n'),
        },
      ];
    }),
  );
}
