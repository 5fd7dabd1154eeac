import { CUSTOMER_ASSETS, type TAsset } from '@coffer/shared';
import { showServerError, useZodForm } from '@web/components/ui/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { TCodeAddress } from './address-code';
import { checkWithdrawal, maxAmountText } from './check-withdrawal';
import { type useWithdrawal, WITHDRAWAL_ERROR_TOAST } from './use-withdrawal';

export type TWithdrawFields = { assetId: string; amount: string; address: string; memo: string };
const EMPTY: TWithdrawFields = { assetId: '', amount: '', address: '', memo: '' };

/**
 * The withdrawal form's state: the values, the messages worked out from them and the funds
 * (on every render: the balance and the server's Bitcoin network load after the form shows),
 * when each message shows, Max, the review of a checked request, and the submit.
 */
export function useWithdrawForm(withdrawal: ReturnType<typeof useWithdrawal>, fixedAsset?: TAsset) {
  const navigate = useNavigate();
  const form = useZodForm<TWithdrawFields>(null, { ...EMPTY, assetId: fixedAsset?.id ?? '' });
  const fields = form.watch();
  const { touchedFields, dirtyFields, isSubmitted } = form.formState;
  // The amount Max last filled in, for which asset: until the customer types one, a 0 is Max's.
  const [maxFilled, setMaxFilled] = useState<{ assetId: string; amount: string } | null>(null);
  const [reviewing, setReviewing] = useState(false);

  const asset = fixedAsset ?? CUSTOMER_ASSETS.find((a) => a.id === fields.assetId);
  const funds = withdrawal.fundsOf(asset);
  const check = checkWithdrawal(
    {
      ...fields,
      // A memo left from an asset that takes one is not sent with one that does not.
      memo: asset?.usesMemo ? fields.memo : '',
      amountFromMax: maxFilled?.assetId === fields.assetId && maxFilled.amount === fields.amount,
    },
    funds,
    withdrawal.bitcoinNetworkKnown,
  );
  const closed = withdrawal.closedReason;
  // The daily limit counts the amount sent, as the server does; the fee is not part of it.
  const warning = withdrawal.limitWarning(asset, check.amountMinor);
  const fee = check.feeMinor ?? 0n;

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

  /** Max: the available balance less the fee, from the balance the page has loaded. */
  function fillMax() {
    if (!asset || !funds) return;
    const amount = maxAmountText(asset, funds);
    form.setValue('amount', amount, { shouldDirty: true, shouldTouch: true });
    setMaxFilled({ assetId: asset.id, amount });
    clearRefusal();
  }

  /** A pasted or scanned address; an amount the code named is left for the customer. */
  function fillAddress(code: TCodeAddress) {
    form.setValue('address', code.address, { shouldDirty: true, shouldTouch: true });
    clearRefusal();
    if (code.namedAmount) {
      toast.info('Address filled in', {
        description: 'The code also named an amount. Enter the amount you mean to send yourself.',
      });
    }
  }

  /** The fields passed their checks: the customer reviews the request before the code. */
  function onSubmit() {
    if (!check.request || closed) return;
    setReviewing(true);
  }

  /** Confirmed in the review: the second factor is asked for, and the request leaves with it. */
  function confirm() {
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
        // Back to the form, where the refusal shows under its field or the button.
        setReviewing(false);
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
    live: { errors: check.errors, shown },
    clearRefusal,
    fillMax,
    /** The customer types an amount of their own: it is no longer Max's. */
    typedAmount: () => setMaxFilled(null),
    fillAddress,
    onSubmit,
    /** The review shows while the checked request stands; a change of balance ends it. */
    reviewing: reviewing && check.request !== null,
    confirm,
    back: () => setReviewing(false),
  };
}

export type TWithdrawForm = ReturnType<typeof useWithdrawForm>;
