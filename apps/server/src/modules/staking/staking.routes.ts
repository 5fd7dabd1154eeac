import { fromMinor, type TStakingResponse, ZStakingResponse } from '@coffer/shared';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatRate } from './staking.accrual';
import type { StakingOverview, StakingService } from './staking.service';

const eth = (wei: bigint) => fromMinor('ETH', wei);
const iso = (at: Date | null) => at?.toISOString() ?? null;

function presentStaking(o: StakingOverview): TStakingResponse {
  return {
    ethBalance: eth(o.ethBalance),
    isStaking: o.status === 'active',
    status: o.status,
    dailyRate: formatRate(o.dailyRate),
    programStart: o.programStart.toISOString(),
    activeStakers: o.activeStakers,
    creditedTotal: eth(o.creditedTotal),
    pendingAccrued: eth(o.pendingAccrued),
    accruingPerSecond: eth(o.accruingPerSecond),
    dailyEarnings: eth(o.dailyEarnings),
    cycleStartAt: iso(o.cycleStartAt),
    nextCreditAt: iso(o.nextCreditAt),
    stakingSince: iso(o.stakingSince),
    asOf: o.asOf.toISOString(),
  };
}

/** The dashboard's staking board; the gate's default access. */
export function stakingRoutes(staking: Pick<StakingService, 'overview'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/staking', { schema: { response: { 200: ZStakingResponse } } }, async (request) =>
      presentStaking(await staking.overview(signedIn(request).userId)),
    );
  };
}
