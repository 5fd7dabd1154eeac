import { KYC_FIELDS, type TKycSubmissionResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postForm } from '@web/lib/upload-client';
import { kycStatusQueryOptions } from './get-kyc-status';

export type TSubmitKycInput = {
  fullName: string;
  phoneNumber: string;
  address: string;
  front: File;
  back: File | null;
};

export function submitKyc(input: TSubmitKycInput): Promise<TKycSubmissionResponse> {
  const form = new FormData();
  form.append(KYC_FIELDS.fullName, input.fullName);
  form.append(KYC_FIELDS.phoneNumber, input.phoneNumber);
  form.append(KYC_FIELDS.address, input.address);
  form.append(KYC_FIELDS.front, input.front, input.front.name);
  if (input.back) form.append(KYC_FIELDS.back, input.back, input.back.name);
  return postForm<TKycSubmissionResponse>('/api/kyc', form);
}

/** Submits (or resubmits) the identity documents; the status is read again afterwards. */
export function useSubmitKyc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitKyc,
    onSettled: () => queryClient.invalidateQueries({ queryKey: kycStatusQueryOptions().queryKey }),
  });
}
