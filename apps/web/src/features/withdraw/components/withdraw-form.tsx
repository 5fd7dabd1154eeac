import type { TAsset } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Form, FormError } from '@web/components/ui/form';
import { useEffect, useRef } from 'react';
import { FeeSummary } from './fee-summary';
import { useWithdrawForm } from './use-withdraw-form';
import type { useWithdrawal } from './use-withdrawal';
import {
  AddressField,
  AmountField,
  AssetField,
  MemoField,
  WithdrawNotice,
} from './withdraw-form-fields';
import { WithdrawReview } from './withdraw-review';

/**
 * The withdrawal form of both withdraw pages: with `asset`, the page of one asset; without,
 * the customer chooses the asset first. Both send the same request, checked the same way,
 * after the customer has reviewed it.
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
  const submitId = `${fixedAsset ? 'withdraw-asset' : 'withdraw'}-submit`;
  const cameBack = useRef(false);

  // Back from the review, the keyboard is where it left the form: on its button.
  useEffect(() => {
    if (state.reviewing) cameBack.current = true;
    else if (cameBack.current) {
      cameBack.current = false;
      document.getElementById(submitId)?.focus();
    }
  }, [state.reviewing, submitId]);

  if (state.reviewing && asset && check.request && check.amountMinor !== null) {
    return (
      <WithdrawReview
        asset={asset}
        draft={check.request}
        amountMinor={check.amountMinor}
        feeMinor={fee}
        disabled={closed !== null}
        pending={withdrawal.pending}
        onBack={state.back}
        onConfirm={state.confirm}
      />
    );
  }

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

      {fixedAsset ? null : <AddressField state={state} />}

      <MemoField state={state} fixedAsset={fixedAsset} />

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
        id={submitId}
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
