import type { TAdminKycDetailResponse, TAdminKycReviewRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKycKeys } from './keys';

export function reviewKyc(input: {
  id: string;
  body: TAdminKycReviewRequest;
}): Promise<TAdminKycDetailResponse> {
  return api.post<TAdminKycDetailResponse>(
    `/api/admin/kyc/${encodeURIComponent(input.id)}/review`,
    input.body,
  );
}

/** Approves or rejects a pending submission; the list and the details are read again. */
export function useReviewKyc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewKyc,
    // The documents are not read again: each read is an audited look at them.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKycKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: adminKycKeys.details() }),
      ]),
  });
}
