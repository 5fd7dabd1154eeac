import { formatDateTime } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { errorMessage } from '@web/lib/api-client';
import { RefreshCw } from 'lucide-react';
import { useAuditChain } from '../api/verify-audit-chain';

/** The hash chain's state (product.md M7): intact, or the first row edited or removed. */
export function ChainStatus() {
  const chain = useAuditChain();
  const recheck = (
    <div className="mt-2">
      <Button
        variant="outline"
        size="sm"
        onClick={() => void chain.refetch()}
        disabled={chain.isFetching}
      >
        <RefreshCw className="h-4 w-4" aria-hidden />
        {chain.isFetching ? 'Checking...' : 'Check again'}
      </Button>
    </div>
  );
  if (chain.isPending) {
    return (
      <Alert role="status" title="Checking the audit chain...">
        Every row's hash is being recomputed.
      </Alert>
    );
  }
  if (chain.isError) {
    return (
      <Alert variant="warning" role="alert" title="The audit chain could not be checked">
        {errorMessage(chain.error, 'Request failed')}
        {recheck}
      </Alert>
    );
  }
  const checked = formatDateTime(chain.data.checkedAt);
  if (chain.data.ok) {
    return (
      <Alert role="status" title="Audit chain intact">
        All {chain.data.rows ?? 0} rows match their hashes and link to the row before (checked{' '}
        {checked}).
        {recheck}
      </Alert>
    );
  }
  return (
    <Alert
      variant="danger"
      role="alert"
      title={`Audit chain broken at row #${chain.data.firstBrokenId}`}
    >
      {chain.data.reason === 'content changed'
        ? 'This row no longer matches its hash: it was edited directly in the database.'
        : 'This row does not link to the row before it: a row before it was deleted or replaced in the database.'}{' '}
      Checked {checked}.{recheck}
    </Alert>
  );
}
