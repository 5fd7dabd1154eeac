import type { TKycSide } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchFile } from '@web/lib/upload-client';
import { adminKycKeys } from './keys';

/** A document's bytes from the authenticated endpoint; each fetch is written to the audit log. */
export function getKycDocument(id: string, side: TKycSide, signal?: AbortSignal): Promise<Blob> {
  return fetchFile(`/api/admin/kyc/${encodeURIComponent(id)}/documents/${side}`, signal);
}

export const kycDocumentQueryOptions = (id: string, side: TKycSide, version: string) =>
  queryOptions({
    queryKey: adminKycKeys.document(id, side, version),
    queryFn: ({ signal }) => getKycDocument(id, side, signal),
    // Identity documents are not kept around: fetched while the dialog shows them.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** An image document for its preview (only fetched when `enabled`). */
export function useKycDocument(id: string, side: TKycSide, version: string, enabled: boolean) {
  return useQuery({ ...kycDocumentQueryOptions(id, side, version), enabled });
}
