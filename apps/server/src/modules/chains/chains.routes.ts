import { ERROR_RESPONSES } from '@server/lib/error-responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { ChainAdapter } from './chain-adapter';
import type { ChainConfigs } from './chain-config';
import { chainsOverview } from './chain-status';
import { chainStatusRepository } from './chain-status.repository';

const ZChainName = z.enum(['bitcoin', 'ethereum', 'tron']);

/** A configuration variable as staff may see it: URLs without credentials, no secret. */
const ZConfigItem = z.object({
  name: z.string(),
  /** Null when the variable is not set. */
  value: z.string().nullable(),
});

const ZWatchedChain = z.object({
  chain: ZChainName,
  configured: z.literal(true),
  state: z.enum(['ok', 'lagging', 'failing', 'not-started']),
  reason: z.string(),
  nodeTip: z.number().nullable(),
  height: z.number().nullable(),
  lag: z.number().nullable(),
  lastBlockAt: z.string().nullable(),
  lastPollAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  errorsLastHour: z.number(),
  watchedAddresses: z.number(),
  confirming: z.number(),
  reversedOnChain: z.number(),
  requiredConfirmations: z.number().nullable(),
  configuration: z.array(ZConfigItem),
});

/** A chain with no node configured: its deposits are credited by staff, as before. */
const ZUnwatchedChain = z.object({
  chain: ZChainName,
  configured: z.literal(false),
  state: z.literal('not-configured'),
  reason: z.string(),
  configuration: z.array(ZConfigItem),
});

/** A credited deposit that left its chain: staff resolve it; it was never debited. */
const ZChainAlert = z.object({
  depositId: z.string(),
  chain: z.string(),
  txHash: z.string(),
  userId: z.string(),
  email: z.string(),
  assetId: z.string(),
  amountMinor: z.string(),
  since: z.string(),
});

export const ZChainsResponse = z.object({
  /** Every chain, in a fixed order (bitcoin, ethereum, tron), watched or not. */
  chains: z.array(z.discriminatedUnion('configured', [ZWatchedChain, ZUnwatchedChain])),
  alerts: z.array(ZChainAlert),
});
export type TChainsResponse = z.infer<typeof ZChainsResponse>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The watchers as staff see them (admin tree, `access: 'admin'`): each chain's state with
 * its figures and configuration (chain-status.ts, shared with the CLI's `chain-status`),
 * and every credited deposit that left its chain (status 'reversed-on-chain').
 */
export function adminChainsRoutes(deps: {
  pool: pg.Pool;
  chainAdapters: readonly ChainAdapter[];
  chains: ChainConfigs;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/chains',
      {
        config: { permission: 'chains.read' },
        schema: { response: { 200: ZChainsResponse, ...ERROR_RESPONSES } },
      },
      async (): Promise<TChainsResponse> => {
        const chains = await chainsOverview(deps.pool, deps.chainAdapters, deps.chains);
        const rows = await chainStatusRepository.reversedDeposits(deps.pool);
        return {
          chains: chains.map((c) =>
            c.configured
              ? {
                  chain: c.chain,
                  configured: true as const,
                  state: c.state,
                  reason: c.reason,
                  nodeTip: c.nodeTip,
                  height: c.height,
                  lag: c.lag,
                  lastBlockAt: iso(c.lastBlockAt),
                  lastPollAt: iso(c.lastPollAt),
                  lastError: c.lastError,
                  lastErrorAt: iso(c.lastErrorAt),
                  errorsLastHour: c.errorsLastHour,
                  watchedAddresses: c.watchedAddresses,
                  confirming: c.confirming,
                  reversedOnChain: c.reversedOnChain,
                  requiredConfirmations: c.requiredConfirmations,
                  configuration: c.configuration,
                }
              : c,
          ),
          alerts: rows.map((r) => ({
            depositId: r.id,
            chain: r.chain,
            txHash: r.tx_hash,
            userId: r.user_id,
            email: r.email,
            assetId: r.asset_id,
            amountMinor: r.amount_minor,
            since: r.updated_at.toISOString(),
          })),
        };
      },
    );
  };
}
