import type { TDepositAddress, TDepositAddressesResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { moneyKeys } from './keys';

export function getDepositAddresses(signal?: AbortSignal): Promise<TDepositAddressesResponse> {
  return api.get<TDepositAddressesResponse>('/api/deposit-addresses', signal);
}

export const depositAddressesQueryOptions = () =>
  queryOptions({
    queryKey: moneyKeys.depositAddresses(),
    queryFn: ({ signal }) => getDepositAddresses(signal),
  });

/** The customer's active deposit addresses, or why deposits are off. */
export function useDepositAddresses() {
  return useQuery(depositAddressesQueryOptions());
}

/** 'ERC-20', 'erc20' and 'Erc 20' name the same network. */
function networkKey(network: string): string {
  return network.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The newest address that pays into a catalogue wallet. Addresses the server could not tie
 * to a wallet are matched by symbol and network instead.
 */
export function depositAddressFor(
  addresses: readonly TDepositAddress[],
  asset: { id: string; symbol: string; network: string },
): TDepositAddress | undefined {
  const matches = addresses.filter((a) =>
    a.assetId !== null
      ? a.assetId === asset.id
      : a.assetSymbol.toUpperCase() === asset.symbol && networkKey(a.network) === asset.network,
  );
  return matches.sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
}
