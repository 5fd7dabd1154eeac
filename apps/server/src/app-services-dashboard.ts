import type { AccountServices } from './app-services-accounts';
import type { MoneyServices } from './app-services-money';
import type { Infra, Platform } from './app-services-platform';
import { createDashboard } from './modules/dashboard';
import { presentPrices } from './modules/prices/prices.routes';
import { createPublicInfo } from './modules/public';
import { presentStaking } from './modules/staking/present-staking';

/**
 * The operator's public figures, and the dashboard's one read composed of the reads the
 * separate endpoints answer with (wallets, prices, staking, money status, the chart, the
 * checklist), so both always say the same.
 */
export function createDashboardServices(
  { config }: Infra,
  { settings, users }: Pick<Platform, 'settings' | 'users'>,
  { firstRun }: Pick<AccountServices, 'firstRun'>,
  { wallets, prices, staking, moneyControls }: MoneyServices,
) {
  const publicInfo = createPublicInfo({ settings, users, dataDir: config.dataDir });
  const dashboard = createDashboard({
    wallets: (userId) => wallets.list(userId),
    portfolioHistory: (userId, range) => wallets.history(userId, range),
    staking: async (userId) => presentStaking(await staking.overview(userId)),
    moneyStatus: (userId) => moneyControls.status(userId),
    prices: () => presentPrices(prices.current()),
    publicInfo: () => publicInfo.read(),
    firstRun: (userId) => firstRun.state(userId),
  });
  return { publicInfo, dashboard };
}
