import { z } from 'zod';

/** A problem the health check found, in words an operator can act on. */
export const ZHealthStatus = z.enum(['optimal', 'degraded']);

export const ZAdminOverview = z.object({
  /** Registered customers (staff not counted). */
  totalUsers: z.number().int(),
  /** Completed deposits, withdrawals and bank transfers of the last 30 days, in USD. */
  volume30dUsd: z.string(),
  /** Deposit addresses marked active. */
  activeAddresses: z.number().int(),
  health: z.object({
    status: ZHealthStatus,
    /** Empty when optimal; otherwise what is wrong, one line each. */
    problems: z.array(z.string()),
    database: z.boolean(),
    priceFeed: z.object({
      /** When prices were last fetched successfully; null if never. */
      updatedAt: z.string().nullable(),
      ageSeconds: z.number().int().nullable(),
      source: z.enum(['live', 'cached', 'fallback']),
    }),
    /** Null when the database could not be asked. */
    reconciliation: z
      .object({
        clean: z.boolean(),
        mismatchedWallets: z.number().int(),
        /** When the last reconciliation ran (every minute, see the ledger check job). */
        checkedAt: z.string(),
      })
      .nullable(),
    checkedAt: z.string(),
  }),
});
export type TAdminOverview = z.infer<typeof ZAdminOverview>;
