import { RefreshCw } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import type { useWithdrawal } from './use-withdrawal';

/** Why withdrawals are closed, and a failed balance load with a retry: both withdraw pages show them. */
export function WithdrawalNotices({
  withdrawal,
  closed,
  loadErrorTitle,
}: {
  withdrawal: ReturnType<typeof useWithdrawal>;
  closed: string | null;
  loadErrorTitle: string;
}) {
  return (
    <>
      {closed ? (
        <Alert variant="danger" role="alert" title="Withdrawals unavailable">
          {closed}
        </Alert>
      ) : null}
      {withdrawal.wallets.isError && !withdrawal.wallets.data ? (
        <Alert variant="danger" role="alert" title={loadErrorTitle}>
          <p>{errorMessage(withdrawal.wallets.error, 'Failed to load wallet data')}</p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2"
            onClick={() => void withdrawal.wallets.refetch()}
          >
            <RefreshCw className="h-4 w-4" aria-hidden />
            Try again
          </Button>
        </Alert>
      ) : null}
    </>
  );
}
