import type { TAdminTransaction } from '@coffer/shared';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
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
  if (one.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner className="h-6 w-6" label="Loading transaction" />
      </div>
    );
  }
  if (one.isError) {
    return (
      <div className="flex flex-col items-start gap-3 py-4">
        <p role="alert" className="text-sm text-danger">
          Could not load this transaction: {one.error.message}
        </p>
        <Button variant="outline" size="sm" onClick={() => void one.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return children(one.data.transaction);
}
