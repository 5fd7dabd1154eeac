import type { TPublicInfo } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { marketingKeys } from './keys';

export function getPublicInfo(): Promise<TPublicInfo> {
  return api.get<TPublicInfo>('/api/public/info');
}

export const publicInfoQueryOptions = () =>
  queryOptions({ queryKey: marketingKeys.publicInfo(), queryFn: getPublicInfo });

/** Staking rate, live figures and the support link, as the operator set them. */
export function usePublicInfo() {
  return useQuery(publicInfoQueryOptions());
}
