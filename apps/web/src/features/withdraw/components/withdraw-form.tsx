import type { TAsset } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Form, FormError, FormField } from '@web/components/ui/form';
import { FeeSummary } from './fee-summary';
import { useWithdrawForm } from './use-withdraw-form';
import type { useWithdrawal } from './use-withdrawal';
import { AddressField, AmountField, AssetField, WithdrawNotice } from './withdraw-form-fields';

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
  const state = useWithdrawForm(withdrawal, fixedAsset);
  const { asset, check, closed, warning, fee } = state;

  return (
    <Form
      form={state.form}
      onSubmit={state.onSubmit}
      onChange={state.clearRefusal}
      live={state.live}
      className="space-y-5"
    >
      {fixedAsset ? null : <AssetField state={state} />}

      {fixedAsset ? <AddressField state={state} fixedAsset={fixedAsset} /> : null}

      <AmountField state={state} fixedAsset={fixedAsset} />

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
        <AddressField state={state} />
      )}

      {asset && (fixedAsset || check.feeMinor !== null) ? (
        <FeeSummary asset={asset} amountMinor={check.amountMinor} feeMinor={fee} />
      ) : null}
      {warning ? (
        <Alert variant="warning" role="status">
          {warning}
        </Alert>
      ) : null}

      <WithdrawNotice fixedAsset={fixedAsset} />

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
