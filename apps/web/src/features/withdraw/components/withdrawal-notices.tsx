import { Alert } from '@web/components/ui/alert';
import { LoadFailedAlert } from '@web/components/ui/load-failed-alert';
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
        <LoadFailedAlert
          title={loadErrorTitle}
          error={withdrawal.wallets.error}
          fallback="Failed to load wallet data"
          onRetry={() => void withdrawal.wallets.refetch()}
        />
      ) : null}
    </>
  );
}
