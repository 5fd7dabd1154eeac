import type { TKycSide } from '@coffer/shared';

export const adminKycKeys = {
  all: () => ['admin', 'kyc'] as const,
  list: () => [...adminKycKeys.all(), 'list'] as const,
  details: () => [...adminKycKeys.all(), 'detail'] as const,
  detail: (id: string) => [...adminKycKeys.details(), id] as const,
  document: (id: string, side: TKycSide, version: string) =>
    [...adminKycKeys.all(), 'document', id, side, version] as const,
};
