import type { TAdminTransaction } from '@coffer/shared';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import type { ReactNode } from 'react';
import { useAdminTransaction } from '../api/get-admin-transaction';

/**
 * Reads one transaction whole when staff open it (the list carries only what the table
 * shows) and hands it to `children`; a spinner meanwhile, the reason and Retry if it fails.
 */
export function WithTransaction({
  id,
  children,
}: {
  id: string;
  children: (tx: TAdminTransaction) => ReactNode;
}) {
  const one = useAdminTransaction(id);
  if (one.isPending) return <LoadingState label="Loading transaction" className="py-8" />;
  if (one.isError) {
    return (
      <LoadError
        message={`Could not load this transaction: ${one.error.message}`}
        onRetry={() => void one.refetch()}
        className="py-4"
      />
    );
  }
  return children(one.data.transaction);
}
