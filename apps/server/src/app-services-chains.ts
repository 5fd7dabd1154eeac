import type { AccountServices } from './app-services-accounts';
import type { MoneyServices } from './app-services-money';
import type { Infra, Platform } from './app-services-platform';
import { createChainWatcher, TronAdapter } from './modules/chains';
import { createChainAdapters } from './modules/chains/adapters';
import { BitcoinAdapter } from './modules/chains/bitcoin-adapter';
import { EthereumAdapter } from './modules/chains/ethereum-adapter';
import { createPayoutSettlement, createPayoutsService } from './modules/payouts';
import type { StaffChanges } from './modules/staff-changes';

/** Chains: the configured chains' adapters, payouts on chain and one watcher per chain. */
export function createChainServices(
  infra: Infra,
  {
    outbox,
    settings,
    audit,
    realtime,
  }: Pick<Platform, 'outbox' | 'settings' | 'audit' | 'realtime'>,
  { stepUp }: Pick<AccountServices, 'stepUp'>,
  { ledger, prices, withdrawals }: Pick<MoneyServices, 'ledger' | 'prices' | 'withdrawals'>,
  changes: Pick<StaffChanges, 'assertNotFunder' | 'register' | 'propose'>,
) {
  const { pool, config } = infra;
  // One watcher per configured chain, each run by the holder of its job lock (jobs.ts).
  const chainAdapters = infra.chainAdapters ?? createChainAdapters(config);
  const bitcoinNode = chainAdapters.find((a) => a instanceof BitcoinAdapter) ?? null;
  const ethereumNode = chainAdapters.find((a) => a instanceof EthereumAdapter) ?? null;
  const tronNode = chainAdapters.find((a) => a instanceof TronAdapter) ?? null;
  // Payouts on chain: Coffer builds, the operator signs offline, the watcher settles.
  const payouts = createPayoutsService({
    pool,
    chains: config.chains,
    keyOrigin: config.chains.bitcoin?.keyOrigin ?? null,
    bitcoin: bitcoinNode,
    ethereum: ethereumNode,
    tron: tronNode,
    withdrawals,
    audit,
    outbox,
    stepUp,
    settings,
    changes,
    log: infra.log,
  });
  const chainWatchers = chainAdapters.map((adapter) =>
    createChainWatcher({
      pool,
      adapter,
      ledger,
      prices,
      outbox,
      audit,
      settings,
      log: infra.log,
      publicUrl: config.publicUrl,
      onConfirmations: (client, userIds) =>
        realtime.publishMany(
          client,
          userIds.map((userId) => ({ type: 'ledger.changed' as const, userId })),
        ),
      // TRON only reads: its payouts are paid by hand and the watcher verifies the typed hash.
      ...(adapter instanceof BitcoinAdapter ||
      adapter instanceof EthereumAdapter ||
      adapter instanceof TronAdapter
        ? {
            payouts: {
              node: adapter,
              ...createPayoutSettlement({
                pool,
                chain: adapter.chain,
                node: adapter,
                sender:
                  adapter.chain === 'ethereum'
                    ? (payouts.payoutAddress?.toLowerCase() ?? null)
                    : null,
                nonces: adapter instanceof EthereumAdapter ? adapter : null,
                withdrawals,
                audit,
                outbox,
                settings,
                publicUrl: config.publicUrl,
                log: infra.log,
              }),
            },
          }
        : {}),
    }),
  );
  return { chainAdapters, payouts, chainWatchers };
}

export type ChainServices = ReturnType<typeof createChainServices>;
