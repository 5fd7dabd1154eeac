import { CUSTOMER_ASSETS, formatAmount } from '@coffer/shared';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Alert } from '../../../components/ui/alert';
import { BackLink } from '../../../components/ui/back-link';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { PageSpinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { checkWithdrawal } from './check-withdrawal';
import { FeeSummary } from './fee-summary';
import { useWithdrawal, WITHDRAWAL_ERROR_TOAST } from './use-withdrawal';
import { WithdrawalNotices } from './withdrawal-notices';

const EMPTY = { assetId: '', amount: '', address: '' };
type Field = keyof typeof EMPTY;

const SELECT_CLASS =
  'h-10 w-full rounded-md border border-border bg-surface px-3 text-sm text-fg ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary ' +
  'disabled:opacity-60 aria-[invalid=true]:border-danger';

/** /dashboard/withdraw: a withdrawal of any of the customer's assets. */
export default function WithdrawPage() {
  const navigate = useNavigate();
  const withdrawal = useWithdrawal();
  const [fields, setFields] = useState(EMPTY);
  const [touched, setTouched] = useState<Record<Field, boolean>>({
    assetId: false,
    amount: false,
    address: false,
  });
  const [formError, setFormError] = useState<string | null>(null);

  const asset = CUSTOMER_ASSETS.find((a) => a.id === fields.assetId);
  const funds = withdrawal.fundsOf(asset);
  const check = checkWithdrawal(fields, funds, withdrawal.bitcoinNetworkKnown);
  const closed = withdrawal.closedReason;
  // The daily limit counts the amount sent, as the server does; the fee is not part of it.
  const warning = withdrawal.limitWarning(asset, check.amountMinor);

  // A field's message shows once it is touched or typed into. The asset's also shows once
  // an amount or address is typed: the submit stays disabled without one, and the customer
  // must be told why.
  const typed = (field: Field) =>
    field === 'assetId' ? fields.amount !== '' || fields.address !== '' : fields[field] !== '';
  const shown = (field: Field) =>
    touched[field] || typed(field) ? check.errors[field] : undefined;

  function update(field: Field, value: string) {
    setFields((f) => ({ ...f, [field]: value }));
    setFormError(null);
  }
  const blur = (field: Field) => () => setTouched((t) => ({ ...t, [field]: true }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ assetId: true, amount: true, address: true });
    if (!check.request || closed) return;
    withdrawal.submit(check.request, {
      onSuccess: () => {
        toast.dismiss(WITHDRAWAL_ERROR_TOAST);
        toast.success('Success', { description: 'Withdrawal request submitted successfully' });
        setFields(EMPTY);
        void navigate('/dashboard');
      },
      onError: (text) => {
        setFormError(text);
        toast.error('Error', { id: WITHDRAWAL_ERROR_TOAST, description: text });
      },
    });
  }

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

          <form onSubmit={onSubmit} noValidate className="space-y-5">
            <div className="space-y-2">
              <Label htmlFor="withdraw-asset">Cryptocurrency</Label>
              <select
                id="withdraw-asset"
                className={SELECT_CLASS}
                value={fields.assetId}
                onChange={(e) => {
                  update('assetId', e.target.value);
                  setTouched((t) => ({ ...t, assetId: true }));
                }}
                onBlur={blur('assetId')}
                aria-invalid={shown('assetId') ? true : undefined}
                aria-describedby={
                  cn(
                    asset && 'withdraw-asset-available',
                    shown('assetId') && 'withdraw-asset-error',
                  ) || undefined
                }
              >
                <option value="">Select a cryptocurrency</option>
                {CUSTOMER_ASSETS.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.label}
                  </option>
                ))}
              </select>
              {asset && funds ? (
                <p id="withdraw-asset-available" className="text-sm text-muted">
                  Available:{' '}
                  <span className="tabular-nums text-fg">
                    {formatAmount(funds.available, asset.decimals, { grouping: true })}{' '}
                    {asset.symbol}
                  </span>
                  {asset.id === 'ETH' ? (
                    <>
                      {' '}
                      · Staking (accruing, not yet withdrawable):{' '}
                      <span className="tabular-nums">
                        {formatAmount(funds.pendingStaking, asset.decimals, {
                          maxFractionDigits: 8,
                        })}{' '}
                        ETH
                      </span>
                    </>
                  ) : null}
                </p>
              ) : null}
              <FieldError id="withdraw-asset-error" message={shown('assetId')} />
            </div>

            <div className="space-y-2">
              <Label htmlFor="withdraw-amount">Amount</Label>
              <Input
                id="withdraw-amount"
                type="number"
                inputMode="decimal"
                step="0.00000001"
                min="0"
                placeholder="0.00000000"
                autoComplete="off"
                value={fields.amount}
                onChange={(e) => update('amount', e.target.value)}
                onBlur={blur('amount')}
                aria-invalid={shown('amount') ? true : undefined}
                aria-describedby={shown('amount') ? 'withdraw-amount-error' : undefined}
              />
              <FieldError id="withdraw-amount-error" message={shown('amount')} />
            </div>

            <div className="space-y-2">
              <Label htmlFor="withdraw-address">Destination address</Label>
              <Input
                id="withdraw-address"
                type="text"
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="off"
                translate="no"
                placeholder={
                  asset ? `Your ${asset.symbol} address` : 'Select a cryptocurrency first'
                }
                className="font-mono"
                value={fields.address}
                onChange={(e) => update('address', e.target.value)}
                onBlur={blur('address')}
                aria-invalid={shown('address') ? true : undefined}
                aria-describedby={shown('address') ? 'withdraw-address-error' : undefined}
              />
              <FieldError id="withdraw-address-error" message={shown('address')} />
            </div>

            {asset && check.feeMinor !== null ? (
              <FeeSummary asset={asset} amountMinor={check.amountMinor} feeMinor={check.feeMinor} />
            ) : null}
            {warning ? (
              <Alert variant="warning" role="status">
                {warning}
              </Alert>
            ) : null}

            <Alert variant="info" title="Security notice">
              Withdrawals are reviewed and processed within 1-24 hours. Check the address and
              network carefully: crypto sent to a wrong address cannot be recovered. Coffer staff
              will never ask you to withdraw to an address they give you.
            </Alert>

            <FieldError message={formError} />

            <Button
              type="submit"
              size="lg"
              className="w-full"
              disabled={!check.request || closed !== null || withdrawal.pending}
            >
              {withdrawal.pending ? 'Processing...' : 'Submit Withdrawal Request'}
            </Button>
          </form>
          <StepUpDialog {...withdrawal.stepUp} />
        </CardContent>
      </Card>
    </div>
  );
}
