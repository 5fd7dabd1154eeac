import client from 'prom-client';
import { healthRepository as repo } from './health.repository';
import { type HealthContext, LEDGER_CHECK_MAX_AGE_MS, priceAgeSeconds } from './health-checks';

/**
 * The operational figures of /metrics, read when scraped. A figure that cannot be read now
 * (the database is down) is left out of that scrape rather than failing the whole page.
 */
export function registerHealthMetrics(ctx: HealthContext): void {
  const { pool, realtime, ledgerCheck, metrics } = ctx;
  const registers = [metrics.registry];
  new client.Gauge({
    name: 'coffer_db_pool_connections',
    help: "The main database pool's connections: total open, idle, and requests waiting for one",
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new client.Gauge({
    name: 'coffer_db_pool_max_connections',
    help: "The main database pool's size",
    registers,
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
  new client.Gauge({
    name: 'coffer_websocket_connections',
    help: 'Realtime websockets open on this instance',
    registers,
    collect() {
      this.set(realtime.connections);
    },
  });
  new client.Gauge({
    name: 'coffer_price_age_seconds',
    help: 'Age of the prices in use (-1 when there are none yet)',
    registers,
    collect() {
      this.set(priceAgeSeconds(ctx) ?? -1);
    },
  });
  new client.Gauge({
    name: 'coffer_outbox_backlog',
    help: 'Outbox rows not delivered: pending (waiting or retrying) and given_up (for an operator)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      const backlog = await repo.outboxBacklog(pool).catch(() => null);
      if (!backlog) return;
      this.set({ state: 'pending' }, backlog.pending);
      this.set({ state: 'given_up' }, backlog.givenUp);
    },
  });
  new client.Gauge({
    name: 'coffer_outbox_overdue_seconds',
    help: 'How long the oldest due outbox row has waited past its time (0: none)',
    registers,
    async collect() {
      this.reset();
      const backlog = await repo.outboxBacklog(pool).catch(() => null);
      if (backlog) this.set(backlog.overdueSeconds);
    },
  });
  new client.Gauge({
    name: 'coffer_reconciliation_mismatched_wallets',
    help: 'Wallets whose balance or hold differs from their ledger rows (0: reconciled)',
    registers,
    async collect() {
      this.reset();
      const result = await ledgerCheck.recent(LEDGER_CHECK_MAX_AGE_MS).catch(() => null);
      if (result) this.set(result.mismatchedWallets);
    },
  });
}
