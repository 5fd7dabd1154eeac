import { networkLabel } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { AssetLogo } from '@web/components/ui/asset-logo';
import { BackLink } from '@web/components/ui/back-link';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { resolveAsset } from '@web/lib/resolve-asset';
import { useParams } from 'react-router';
import { useWithdrawal } from './use-withdrawal';
import { WithdrawForm } from './withdraw-form';
import { WithdrawalNotices } from './withdrawal-notices';

function BackToWithdraw() {
  return <BackLink to="/dashboard/withdraw">Back to Withdraw</BackLink>;
}

/**
 * /withdraw/{symbol}: a withdrawal of one asset. It sends the same real request as
 * /dashboard/withdraw, and Max is the real available balance minus the fee (product.md M6).
 */
export default function WithdrawAssetPage() {
  const { symbol } = useParams();
  const asset = resolveAsset(symbol);
  const withdrawal = useWithdrawal();

  if (!asset) {
    return (
      <div className="mx-auto w-full max-w-2xl space-y-6">
        <BackToWithdraw />
        <Card>
          <CardContent className="pt-5">
            <h1 className="text-xl font-semibold text-fg">Cryptocurrency Not Found</h1>
            <p className="mt-1 text-sm text-muted">
              Coffer has no wallet for "{symbol ?? ''}". Choose a cryptocurrency on the withdraw
              page.
            </p>
          </CardContent>
        </Card>
      </div>
    );
  }

  if (withdrawal.wallets.isPending) return <PageSpinner text="Loading your wallet..." />;

  const closed = withdrawal.closedReason;

  return (
    <div className="mx-auto w-full max-w-2xl space-y-6">
      <BackToWithdraw />
      <Card>
        <CardHeader>
          <div className="flex items-center gap-3">
            <AssetLogo symbol={asset.symbol} size="lg" />
            <div>
              <h1 className="text-2xl font-bold text-fg">Withdraw {asset.symbol}</h1>
              <CardDescription>
                {asset.name} · {networkLabel(asset.network)}
              </CardDescription>
            </div>
          </div>
        </CardHeader>
        <CardContent className="space-y-5">
          <WithdrawalNotices
            withdrawal={withdrawal}
            closed={closed}
            loadErrorTitle="Your balance could not be loaded"
          />

          <WithdrawForm withdrawal={withdrawal} asset={asset} />
          <StepUpDialog {...withdrawal.stepUp} />
        </CardContent>
      </Card>
    </div>
  );
}
