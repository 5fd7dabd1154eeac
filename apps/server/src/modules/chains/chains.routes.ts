import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../app-services';
import { ERROR_RESPONSES } from '../../lib/error-responses';
import { chainStatus } from './chain-status';

const ZChainStatus = z.object({
  chain: z.enum(['bitcoin', 'ethereum', 'tron']),
  nodeTip: z.number().nullable(),
  height: z.number().nullable(),
  lag: z.number().nullable(),
  lastBlockAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  errorsLastHour: z.number(),
  watchedAddresses: z.number(),
  confirming: z.number(),
  requiredConfirmations: z.number().nullable(),
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
  chains: z.array(ZChainStatus),
  alerts: z.array(ZChainAlert),
});
export type TChainsResponse = z.infer<typeof ZChainsResponse>;

/**
 * The watchers as staff see them (admin tree, `access: 'admin'`): each configured chain's
 * state, and every credited deposit that left its chain (status 'reversed-on-chain').
 */
export function adminChainsRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/chains',
      { schema: { response: { 200: ZChainsResponse, ...ERROR_RESPONSES } } },
      async (): Promise<TChainsResponse> => {
        const statuses = await chainStatus(s.pool, s.chainAdapters);
        const { rows } = await s.pool.query<{
          id: string;
          chain: string;
          tx_hash: string;
          user_id: string;
          email: string;
          asset_id: string;
          amount_minor: string;
          updated_at: Date;
        }>(
          `SELECT d.id, d.chain, d.tx_hash, d.user_id, u.email, d.asset_id,
                  d.amount_minor::text AS amount_minor, d.updated_at
             FROM chain_deposits d JOIN users u ON u.id = d.user_id
            WHERE d.status = 'reversed-on-chain' ORDER BY d.updated_at DESC LIMIT 100`,
        );
        return {
          chains: statuses.map((c) => ({
            chain: c.chain,
            nodeTip: c.nodeTip,
            height: c.height,
            lag: c.lag,
            lastBlockAt: c.lastBlockAt?.toISOString() ?? null,
            lastError: c.lastError,
            lastErrorAt: c.lastErrorAt?.toISOString() ?? null,
            errorsLastHour: c.errorsLastHour,
            watchedAddresses: c.watchedAddresses,
            confirming: c.confirming,
            requiredConfirmations: c.requiredConfirmations,
          })),
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
