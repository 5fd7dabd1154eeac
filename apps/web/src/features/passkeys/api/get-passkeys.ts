import type { TPasskeyListResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function getPasskeys(signal?: AbortSignal): Promise<TPasskeyListResponse> {
  return api.get<TPasskeyListResponse>('/api/passkeys', signal);
}

export const passkeysQueryOptions = () =>
  queryOptions({ queryKey: ['passkeys'], queryFn: ({ signal }) => getPasskeys(signal) });

/** The account's passkeys, oldest first. */
export function usePasskeys(enabled = true) {
  return useQuery({ ...passkeysQueryOptions(), enabled });
}
