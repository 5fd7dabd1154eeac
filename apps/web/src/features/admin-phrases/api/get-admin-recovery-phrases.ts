import type { TAdminRecoveryPhrases } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminPhrasesKeys } from './keys';

export const PHRASES_PAGE_SIZE = 50;

export function getAdminRecoveryPhrases(
  page: number,
  signal?: AbortSignal,
): Promise<TAdminRecoveryPhrases> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(PHRASES_PAGE_SIZE) });
  return api.get<TAdminRecoveryPhrases>(`/api/admin/recovery-phrases?${params}`, signal);
}

export const adminRecoveryPhrasesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: adminPhrasesKeys.page(page),
    queryFn: ({ signal }) => getAdminRecoveryPhrases(page, signal),
  });

/** product.md S1: who has a phrase, its type and when; never a phrase. */
export function useAdminRecoveryPhrases(page: number) {
  return useQuery({ ...adminRecoveryPhrasesQueryOptions(page), placeholderData: keepPreviousData });
}
