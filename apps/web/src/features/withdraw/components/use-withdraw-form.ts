import { CUSTOMER_ASSETS, type TAsset } from '@coffer/shared';
import { showServerError, useZodForm } from '@web/components/ui/form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { checkWithdrawal } from './check-withdrawal';
import { type useWithdrawal, WITHDRAWAL_ERROR_TOAST } from './use-withdrawal';

export type TWithdrawFields = { assetId: string; amount: string; address: string; memo: string };
const EMPTY: TWithdrawFields = { assetId: '', amount: '', address: '', memo: '' };

/**
 * The withdrawal form's state: the values, the messages worked out from them and the funds
 * (on every render: the balance and the server's Bitcoin network load after the form shows),
 * when each message shows, and the submit.
 */
export function useWithdrawForm(withdrawal: ReturnType<typeof useWithdrawal>, fixedAsset?: TAsset) {
  const navigate = useNavigate();
  const form = useZodForm<TWithdrawFields>(null, { ...EMPTY, assetId: fixedAsset?.id ?? '' });
  const fields = form.watch();
  const { touchedFields, dirtyFields, isSubmitted } = form.formState;

  const asset = fixedAsset ?? CUSTOMER_ASSETS.find((a) => a.id === fields.assetId);
  const funds = withdrawal.fundsOf(asset);
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

  return {
    form,
    asset,
    funds,
    check,
    closed,
    warning,
    fee,
    max,
    live: { errors: check.errors, shown },
    clearRefusal,
    onSubmit,
  };
}

export type TWithdrawForm = ReturnType<typeof useWithdrawForm>;
