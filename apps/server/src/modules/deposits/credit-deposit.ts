import { ASSETS, fromMinor, mulPrice, normalizeTxHash, type TAssetId } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { chainDepositsRepository, chainOfAsset } from '../chains';
import { depositsRepository as repo } from './deposits.repository';
import type { DepositsContext } from './deposits-context';

/** What a credit did; `transactionHash` is the chain hash as it is kept (normalised). */
export type CreditResult =
  | { outcome: 'credited'; transactionId: string; transactionHash: string; balance: string }
  | {
      outcome: 'already-credited';
      transactionId: string;
      transactionHash: string;
      balance: string;
    }
  | { outcome: 'unknown-user' }
  | { outcome: 'invalid-hash'; message: string }
  | { outcome: 'hash-belongs-elsewhere'; transactionId: string; transactionHash: string }
  /** The chain watcher has seen this transaction: it credits it itself, once. */
  | { outcome: 'chain-watched'; status: string; transactionHash: string };

/**
 * Credits a deposit seen on chain: a completed `deposit` credit carrying the chain
 * transaction hash, through the ledger. The hash is normalised for the asset's network
 * first (EVM: 0x + lower-case hex; Bitcoin and TRON: lower-case hex, no prefix), so one
 * chain transaction is one value, and it is credited once per asset: repeating the same
 * credit changes nothing and says so; the same hash with another customer or
 * amount is refused. Operators' switches do not apply: money that arrived is booked.
 */
export async function creditDeposit(
  ctx: DepositsContext,
  input: {
    email: string;
    assetId: TAssetId;
    amount: bigint;
    transactionHash: string;
  },
): Promise<CreditResult> {
  const asset = ASSETS[input.assetId];
  const hash = normalizeTxHash(asset.id, input.transactionHash);
  if (!hash.ok) return { outcome: 'invalid-hash' as const, message: hash.message };
  const transactionHash = hash.value;
  return withTransaction(ctx.pool, async (client) => {
    const userId = await repo.userIdByEmail(client, input.email);
    if (!userId) return { outcome: 'unknown-user' as const };
    await repo.lockChainTransaction(client, asset.id, transactionHash);
    // A transaction the watcher recorded is its to credit (or already credited, or gone
    // from the chain): a manual credit on top would count the same money twice.
    const chain = chainOfAsset(asset.id);
    const watched = chain
      ? (await chainDepositsRepository.depositsOfTx(client, chain, transactionHash)).find(
          (d) => d.asset_id === asset.id,
        )
      : undefined;
    if (watched) {
      return { outcome: 'chain-watched' as const, status: watched.status, transactionHash };
    }
    const earlier = await repo.findCredit(client, asset.id, transactionHash);
    if (earlier) {
      const same = earlier.user_id === userId && earlier.amount === input.amount;
      if (!same)
        return {
          outcome: 'hash-belongs-elsewhere' as const,
          transactionId: earlier.id,
          transactionHash,
        };
      const balance = await repo.balanceOf(client, userId, asset.id);
      return {
        outcome: 'already-credited' as const,
        transactionId: earlier.id,
        transactionHash,
        balance: fromMinor(asset.id, balance),
      };
    }
    const row = await ctx.ledger.post(client, {
      userId,
      assetId: asset.id,
      type: 'deposit',
      direction: 'credit',
      amount: input.amount,
      status: 'completed',
      usdAmount: mulPrice(
        input.amount,
        asset.decimals,
        ctx.prices.current().quotes[asset.id].priceUsd,
      ),
      transactionHash,
      createdBy: null,
    });
    const balance = await repo.balanceOf(client, userId, asset.id);
    return {
      outcome: 'credited' as const,
      transactionId: row.id,
      transactionHash,
      balance: fromMinor(asset.id, balance),
    };
  });
}
