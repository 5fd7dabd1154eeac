import type pg from 'pg';
import type { Ledger } from './ledger.service';

export type LedgerCheckResult = {
  clean: boolean;
  mismatchedWallets: number;
  checkedAt: Date;
};

/**
 * The reconciliation of every wallet against its ledger rows (balance = Σ completed
 * effects, held = Σ pending holds), as the system health shows it. With a million rows it
 * takes seconds of database time, so a job runs it every minute and the admin dashboard
 * reads the latest result, with its time, instead of reconciling on every page load.
 */
export function createLedgerCheck(pool: pg.Pool, ledger: Ledger) {
  let latest: LedgerCheckResult | null = null;
  let running: Promise<LedgerCheckResult> | null = null;

  const check = {
    /** Reconciles now; concurrent callers share one run. */
    run(): Promise<LedgerCheckResult> {
      running ??= ledger
        .reconcile(pool)
        .then((mismatches) => {
          latest = {
            clean: mismatches.length === 0,
            mismatchedWallets: mismatches.length,
            checkedAt: new Date(),
          };
          return latest;
        })
        .finally(() => {
          running = null;
        });
      return running;
    },

    /** The latest result if it is younger than `maxAgeMs`, else a new run. */
    async recent(maxAgeMs: number): Promise<LedgerCheckResult> {
      if (latest && Date.now() - latest.checkedAt.getTime() < maxAgeMs) return latest;
      return check.run();
    },
  };
  return check;
}

export type LedgerCheck = ReturnType<typeof createLedgerCheck>;
