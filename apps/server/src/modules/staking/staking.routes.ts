import { ZStakingResponse } from '@coffer/shared';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { presentStaking } from './present-staking';
import type { StakingService } from './staking.service';

/** The dashboard's staking board; the gate's default access. */
export function stakingRoutes(staking: Pick<StakingService, 'overview'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/staking', { schema: { response: { 200: ZStakingResponse } } }, async (request) =>
      presentStaking(await staking.overview(signedIn(request).userId)),
    );
  };
}
