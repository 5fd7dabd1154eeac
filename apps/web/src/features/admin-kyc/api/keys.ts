import type { TAdminKycListQuery, TKycSide } from '@coffer/shared';

export const adminKycKeys = {
  all: () => ['admin', 'kyc'] as const,
  lists: () => [...adminKycKeys.all(), 'list'] as const,
  list: (q: TAdminKycListQuery) => [...adminKycKeys.lists(), q] as const,
  details: () => [...adminKycKeys.all(), 'detail'] as const,
  detail: (id: string) => [...adminKycKeys.details(), id] as const,
  document: (id: string, side: TKycSide, version: string) =>
    [...adminKycKeys.all(), 'document', id, side, version] as const,
};
