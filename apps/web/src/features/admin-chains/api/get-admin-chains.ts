import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminChainsKeys } from './keys';

/** The chains Coffer can watch. */
export type TChainName = 'bitcoin' | 'ethereum' | 'tron';

/** A configuration variable as the server shows it: URLs without credentials, no secret. */
export type TChainConfigItem = { name: string; value: string | null };

export type TWatchedChain = {
  chain: TChainName;
  configured: true;
  state: 'ok' | 'lagging' | 'failing' | 'not-started';
  reason: string;
  nodeTip: number | null;
  height: number | null;
  lag: number | null;
  lastBlockAt: string | null;
  lastPollAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  errorsLastHour: number;
  watchedAddresses: number;
  confirming: number;
  reversedOnChain: number;
  requiredConfirmations: number | null;
  configuration: TChainConfigItem[];
};

export type TUnwatchedChain = {
  chain: TChainName;
  configured: false;
  state: 'not-configured';
  reason: string;
  configuration: TChainConfigItem[];
};

/** A credited deposit that left its chain after a reorganisation: never debited. */
export type TChainAlert = {
  depositId: string;
  chain: string;
  txHash: string;
  userId: string;
  email: string;
  assetId: string;
  /** In the asset's smallest unit, as a decimal string. */
  amountMinor: string;
  since: string;
};

/** GET /api/admin/chains, as the server's ZChainsResponse (modules/chains/chains.routes.ts). */
export type TAdminChains = {
  chains: Array<TWatchedChain | TUnwatchedChain>;
  alerts: TChainAlert[];
};

/** Watchers move every few seconds; staff watching the screen see it within 15 s. */
export const CHAINS_REFRESH_MS = 15_000;

export const adminChainsQueryOptions = () =>
  queryOptions({
    queryKey: adminChainsKeys.chains(),
    queryFn: ({ signal }) => api.get<TAdminChains>('/api/admin/chains', signal),
    refetchInterval: CHAINS_REFRESH_MS,
  });

export function useAdminChains() {
  return useQuery(adminChainsQueryOptions());
}
