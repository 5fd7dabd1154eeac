import type { ChainAdapter } from '../src/modules/chains/chain-adapter';
import { createChainWatcher, type WatcherDeps } from '../src/modules/chains/chain-watcher';
import type { TestApp } from './helpers';

/**
 * A chain watcher on a test app's services, as the app builds its own, following `adapter`.
 * It starts at block 1 unless told, and backs off for a minute after a failure, so a test
 * decides when it retries (`retryNow`).
 */
export function testWatcher(
  t: TestApp,
  adapter: ChainAdapter,
  opts: Partial<Pick<WatcherDeps, 'startHeight' | 'onConfirmations'>> = {},
) {
  const s = t.services;
  return createChainWatcher({
    pool: s.pool,
    adapter,
    ledger: s.ledger,
    prices: s.prices,
    outbox: s.outbox,
    audit: s.audit,
    settings: s.settings,
    log: s.log,
    publicUrl: s.config.publicUrl,
    startHeight: 1,
    backoffMs: { first: 60_000, max: 60_000 },
    ...opts,
  });
}
