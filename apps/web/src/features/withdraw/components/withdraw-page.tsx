import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { BackLink } from '@web/components/ui/back-link';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { useWithdrawal } from './use-withdrawal';
import { WithdrawForm } from './withdraw-form';
import { WithdrawalNotices } from './withdrawal-notices';

/** /dashboard/withdraw: a withdrawal of any of the customer's assets. */
export default function WithdrawPage() {
  const withdrawal = useWithdrawal();
  const closed = withdrawal.closedReason;

  if (withdrawal.wallets.isPending) return <PageSpinner text="Loading your wallet..." />;

  return (
    <div className="mx-auto w-full max-w-2xl space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold text-fg">Withdraw Funds</h1>
          <CardDescription>
            Send crypto from your Coffer wallet to an address outside Coffer.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          <WithdrawalNotices
            withdrawal={withdrawal}
            closed={closed}
            loadErrorTitle="Your balances could not be loaded"
          />

          <WithdrawForm withdrawal={withdrawal} />
          <StepUpDialog {...withdrawal.stepUp} />
        </CardContent>
      </Card>
    </div>
  );
}
