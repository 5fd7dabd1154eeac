import { fromMinor, type TStakingResponse } from '@coffer/shared';
import { formatRate } from './staking.accrual';
import type { StakingOverview } from './staking.service';

const eth = (wei: bigint) => fromMinor('ETH', wei);
const iso = (at: Date | null) => at?.toISOString() ?? null;

/** The staking board's figures on the wire: GET /api/staking and the dashboard read. */
export function presentStaking(o: StakingOverview): TStakingResponse {
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
