import { CUSTOMER_ASSETS, formatAmount, type TAsset } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Form, FormError, FormField, showServerError, useZodForm } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { OctagonAlert } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { checkWithdrawal, type TWithdrawalFunds } from './check-withdrawal';
import { FeeSummary } from './fee-summary';
import { type useWithdrawal, WITHDRAWAL_ERROR_TOAST } from './use-withdrawal';

type TFields = { assetId: string; amount: string; address: string; memo: string };
const EMPTY: TFields = { assetId: '', amount: '', address: '', memo: '' };

const SELECT_CLASS =
  'h-10 w-full rounded-md border border-border bg-surface px-3 text-sm text-fg ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary ' +
  'disabled:opacity-60 aria-[invalid=true]:border-danger';

/**
 * The withdrawal form of both withdraw pages: with `asset`, the page of one asset (address,
 * amount with Max, memo); without, the customer chooses the asset first. Both send the same
 * request, checked the same way.
 */
export function WithdrawForm({
  withdrawal,
  asset: fixedAsset,
}: {
  withdrawal: ReturnType<typeof useWithdrawal>;
  asset?: TAsset;
}) {
  const navigate = useNavigate();
  const form = useZodForm<TFields>(null, { ...EMPTY, assetId: fixedAsset?.id ?? '' });
  const fields = form.watch();
  const { touchedFields, dirtyFields, isSubmitted } = form.formState;

  const asset = fixedAsset ?? CUSTOMER_ASSETS.find((a) => a.id === fields.assetId);
  const funds = withdrawal.fundsOf(asset);
  // The balance and the server's Bitcoin network load after the form shows, so the messages
  // are worked out from the values on every render, not only when the customer types.
  const check = checkWithdrawal(fields, funds, withdrawal.bitcoinNetworkKnown);
  const closed = withdrawal.closedReason;
  // The daily limit counts the amount sent, as the server does; the fee is not part of it.
  const warning = withdrawal.limitWarning(asset, check.amountMinor);
  const fee = check.feeMinor ?? 0n;
  const max = funds && funds.available > fee ? funds.available - fee : 0n;

  // A field's message shows once it is touched or typed into. The asset's also shows once
  // an amount or address is typed: the submit stays disabled without one, and the customer
  // must be told why.
  const shown = (name: string) => {
    if (isSubmitted) return true;
    if (name === 'assetId') {
      return touchedFields.assetId === true || fields.amount !== '' || fields.address !== '';
    }
    return (
      (touchedFields as Record<string, boolean | undefined>)[name] === true ||
      (dirtyFields as Record<string, boolean | undefined>)[name] === true
    );
  };

  // A new value clears the server's refusal of the last request.
  const clearRefusal = () => form.clearErrors('root');

  function onSubmit() {
    if (!check.request || closed) return;
    withdrawal.submit(check.request, {
      onSuccess: () => {
        toast.dismiss(WITHDRAWAL_ERROR_TOAST);
        if (fixedAsset) {
          toast.success('Withdrawal Initiated', {
            description:
              'Your withdrawal request is pending and will be processed within 1-24 hours.',
          });
        } else {
          toast.success('Success', { description: 'Withdrawal request submitted successfully' });
        }
        form.reset();
        void navigate(fixedAsset ? '/dashboard/history' : '/dashboard');
      },
      onError: (text) => {
        showServerError(form, text, String);
        toast.error('Error', { id: WITHDRAWAL_ERROR_TOAST, description: text });
      },
    });
  }

  const prefix = fixedAsset ? 'withdraw-asset' : 'withdraw';
  const addressField = (
    <FormField
      name="address"
      id={`${prefix}-address`}
      label="Destination address"
      className="space-y-2"
    >
      {(control) => (
        <Input
          {...control}
          type="text"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          translate="no"
          placeholder={
            fixedAsset
              ? `${fixedAsset.symbol} address`
              : asset
                ? `Your ${asset.symbol} address`
                : 'Select a cryptocurrency first'
          }
          className="font-mono"
        />
      )}
    </FormField>
  );

  return (
    <Form
      form={form}
      onSubmit={onSubmit}
      onChange={clearRefusal}
      live={{ errors: check.errors, shown }}
      className="space-y-5"
    >
      {fixedAsset ? null : (
        <FormField
          name="assetId"
          id="withdraw-asset"
          label="Cryptocurrency"
          className="space-y-2"
          describedBy={[asset && 'withdraw-asset-available']}
          after={asset && funds ? <Available asset={asset} funds={funds} /> : null}
        >
          {(control) => (
            <select
              {...control}
              className={SELECT_CLASS}
              onChange={(e) =>
                form.setValue('assetId', e.target.value, { shouldDirty: true, shouldTouch: true })
              }
            >
              <option value="">Select a cryptocurrency</option>
              {CUSTOMER_ASSETS.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
      )}

      {fixedAsset ? addressField : null}

      <FormField
        name="amount"
        id={`${prefix}-amount`}
        label="Amount"
        className="space-y-2"
        describedBy={[fixedAsset && 'withdraw-asset-available']}
        labelRowClassName="flex items-end justify-between gap-2"
        labelAside={
          fixedAsset && funds ? (
            <span id="withdraw-asset-available" className="text-xs text-muted">
              Available:{' '}
              <span className="tabular-nums">
                {formatAmount(funds.available, fixedAsset.decimals, { grouping: true })}{' '}
                {fixedAsset.symbol}
              </span>
            </span>
          ) : null
        }
      >
        {(control) => {
          const input = (
            <Input
              {...control}
              type="number"
              inputMode="decimal"
              step="0.00000001"
              min="0"
              placeholder="0.00000000"
              autoComplete="off"
            />
          );
          if (!fixedAsset) return input;
          return (
            <div className="flex gap-2">
              {input}
              <Button
                variant="outline"
                onClick={() => {
                  form.setValue('amount', formatAmount(max, fixedAsset.decimals), {
                    shouldDirty: true,
                    shouldTouch: true,
                  });
                  clearRefusal();
                }}
                disabled={!funds}
                aria-label={`Max: available balance minus the ${fixedAsset.networkFee} ${fixedAsset.symbol} network fee`}
              >
                Max
              </Button>
            </div>
          );
        }}
      </FormField>

      {fixedAsset ? (
        <FormField
          name="memo"
          id="withdraw-asset-memo"
          label="Memo / tag (optional)"
          className="space-y-2"
          hint="Only if the receiving exchange or wallet asks for one."
          type="text"
          autoComplete="off"
          maxLength={100}
        />
      ) : (
        addressField
      )}

      {asset && (fixedAsset || check.feeMinor !== null) ? (
        <FeeSummary asset={asset} amountMinor={check.amountMinor} feeMinor={fee} />
      ) : null}
      {warning ? (
        <Alert variant="warning" role="status">
          {warning}
        </Alert>
      ) : null}

      {fixedAsset ? (
        <div className="flex items-start gap-3 rounded-lg border border-danger/50 bg-danger/10 p-3 text-sm text-danger">
          <OctagonAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <p>
            <strong>Withdrawals cannot be reversed.</strong> Crypto sent to a wrong address or
            network is lost for good. Double-check the address before you submit.
          </p>
        </div>
      ) : (
        <Alert variant="info" title="Security notice">
          Withdrawals are reviewed and processed within 1-24 hours. Check the address and network
          carefully: crypto sent to a wrong address cannot be recovered. Coffer staff will never ask
          you to withdraw to an address they give you.
        </Alert>
      )}

      <FormError />

      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={!check.request || closed !== null || withdrawal.pending}
      >
        {withdrawal.pending
          ? 'Processing...'
          : fixedAsset
            ? `Withdraw ${fixedAsset.symbol}`
            : 'Submit Withdrawal Request'}
      </Button>
    </Form>
  );
}

/** The chosen asset's available balance under the asset's select; ETH also shows its staking. */
function Available({ asset, funds }: { asset: TAsset; funds: TWithdrawalFunds }) {
  return (
    <p id="withdraw-asset-available" className="text-sm text-muted">
      Available:{' '}
      <span className="tabular-nums text-fg">
        {formatAmount(funds.available, asset.decimals, { grouping: true })} {asset.symbol}
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
  );
}
