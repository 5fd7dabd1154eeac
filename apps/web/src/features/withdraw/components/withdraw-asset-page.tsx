import { formatAmount, networkLabel } from '@coffer/shared';
import { OctagonAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Alert } from '../../../components/ui/alert';
import { AssetLogo } from '../../../components/ui/asset-logo';
import { BackLink } from '../../../components/ui/back-link';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { PageSpinner } from '../../../components/ui/spinner';
import { resolveAsset } from '../../../lib/resolve-asset';
import { checkWithdrawal } from './check-withdrawal';
import { FeeSummary } from './fee-summary';
import { useWithdrawal, WITHDRAWAL_ERROR_TOAST } from './use-withdrawal';
import { WithdrawalNotices } from './withdrawal-notices';

const EMPTY = { address: '', amount: '', memo: '' };
type Field = 'amount' | 'address';

function BackToWithdraw() {
  return <BackLink to="/dashboard/withdraw">Back to Withdraw</BackLink>;
}

/**
 * /withdraw/{symbol}: a withdrawal of one asset. It sends the same real request as
 * /dashboard/withdraw, and Max is the real available balance minus the fee (DEVIATIONS M6).
 */
export default function WithdrawAssetPage() {
  const { symbol } = useParams();
  const asset = resolveAsset(symbol);
  const navigate = useNavigate();
  const withdrawal = useWithdrawal();
  const [fields, setFields] = useState(EMPTY);
  const [touched, setTouched] = useState<Record<Field, boolean>>({
    amount: false,
    address: false,
  });
  const [formError, setFormError] = useState<string | null>(null);

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

  const funds = withdrawal.fundsOf(asset);
  const check = checkWithdrawal(
    { assetId: asset.id, ...fields },
    funds,
    withdrawal.bitcoinNetworkKnown,
  );
  const closed = withdrawal.closedReason;
  const fee = check.feeMinor ?? 0n;
  const max = funds && funds.available > fee ? funds.available - fee : 0n;
  // The daily limit counts the amount sent, as the server does; the fee is not part of it.
  const warning = withdrawal.limitWarning(asset, check.amountMinor);
  const shown = (field: Field) =>
    touched[field] || fields[field] !== '' ? check.errors[field] : undefined;

  function update(field: keyof typeof EMPTY, value: string) {
    setFields((f) => ({ ...f, [field]: value }));
    setFormError(null);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ amount: true, address: true });
    if (!check.request || closed) return;
    withdrawal.submit(check.request, {
      onSuccess: () => {
        toast.dismiss(WITHDRAWAL_ERROR_TOAST);
        toast.success('Withdrawal Initiated', {
          description:
            'Your withdrawal request is pending and will be processed within 1-24 hours.',
        });
        setFields(EMPTY);
        void navigate('/dashboard/history');
      },
      onError: (text) => {
        setFormError(text);
        toast.error('Error', { id: WITHDRAWAL_ERROR_TOAST, description: text });
      },
    });
  }

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

          <form onSubmit={onSubmit} noValidate className="space-y-5">
            <div className="space-y-2">
              <Label htmlFor="withdraw-asset-address">Destination address</Label>
              <Input
                id="withdraw-asset-address"
                type="text"
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="off"
                translate="no"
                placeholder={`${asset.symbol} address`}
                className="font-mono"
                value={fields.address}
                onChange={(e) => update('address', e.target.value)}
                onBlur={() => setTouched((t) => ({ ...t, address: true }))}
                aria-invalid={shown('address') ? true : undefined}
                aria-describedby={shown('address') ? 'withdraw-asset-address-error' : undefined}
              />
              <FieldError id="withdraw-asset-address-error" message={shown('address')} />
            </div>

            <div className="space-y-2">
              <div className="flex items-end justify-between gap-2">
                <Label htmlFor="withdraw-asset-amount">Amount</Label>
                {funds ? (
                  <span id="withdraw-asset-available" className="text-xs text-muted">
                    Available:{' '}
                    <span className="tabular-nums">
                      {formatAmount(funds.available, asset.decimals, { grouping: true })}{' '}
                      {asset.symbol}
                    </span>
                  </span>
                ) : null}
              </div>
              <div className="flex gap-2">
                <Input
                  id="withdraw-asset-amount"
                  type="number"
                  inputMode="decimal"
                  step="0.00000001"
                  min="0"
                  placeholder="0.00000000"
                  autoComplete="off"
                  value={fields.amount}
                  onChange={(e) => update('amount', e.target.value)}
                  onBlur={() => setTouched((t) => ({ ...t, amount: true }))}
                  aria-invalid={shown('amount') ? true : undefined}
                  aria-describedby={
                    shown('amount')
                      ? 'withdraw-asset-available withdraw-asset-amount-error'
                      : 'withdraw-asset-available'
                  }
                />
                <Button
                  variant="outline"
                  onClick={() => {
                    update('amount', formatAmount(max, asset.decimals));
                    setTouched((t) => ({ ...t, amount: true }));
                  }}
                  disabled={!funds}
                  aria-label={`Max: available balance minus the ${asset.networkFee} ${asset.symbol} network fee`}
                >
                  Max
                </Button>
              </div>
              <FieldError id="withdraw-asset-amount-error" message={shown('amount')} />
            </div>

            <div className="space-y-2">
              <Label htmlFor="withdraw-asset-memo">Memo / tag (optional)</Label>
              <Input
                id="withdraw-asset-memo"
                type="text"
                autoComplete="off"
                maxLength={100}
                value={fields.memo}
                onChange={(e) => update('memo', e.target.value)}
                aria-describedby="withdraw-asset-memo-hint"
              />
              <p id="withdraw-asset-memo-hint" className="text-xs text-muted">
                Only if the receiving exchange or wallet asks for one.
              </p>
            </div>

            <FeeSummary asset={asset} amountMinor={check.amountMinor} feeMinor={fee} />
            {warning ? (
              <Alert variant="warning" role="status">
                {warning}
              </Alert>
            ) : null}

            <div className="flex items-start gap-3 rounded-lg border border-danger/50 bg-danger/10 p-3 text-sm text-danger">
              <OctagonAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <p>
                <strong>Withdrawals cannot be reversed.</strong> Crypto sent to a wrong address or
                network is lost for good. Double-check the address before you submit.
              </p>
            </div>

            <FieldError message={formError} />

            <Button
              type="submit"
              size="lg"
              className="w-full"
              disabled={!check.request || closed !== null || withdrawal.pending}
            >
              {withdrawal.pending ? 'Processing...' : `Withdraw ${asset.symbol}`}
            </Button>
          </form>
          <StepUpDialog {...withdrawal.stepUp} />
        </CardContent>
      </Card>
    </div>
  );
}
