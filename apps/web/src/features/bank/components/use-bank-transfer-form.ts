import {
  compareAmounts,
  formatUsd,
  MONEY_MSG,
  type TBankDetails,
  type TBankTransferDraft,
  type TStepUp,
  ZBankTransferDraft,
} from '@coffer/shared';
import { showServerError, type TFormErrors, useZodForm } from '@web/components/ui/form';
import { useMoneyStatus } from '@web/lib/money/get-money-status';
import { DEFAULT_AUD_USD_RATE, usePrices } from '@web/lib/money/get-prices';
import { useWallets } from '@web/lib/money/get-wallets';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useCreateBankTransfer } from '../api/create-bank-transfer';
import { formatBsb } from './bsb';
import { cryptoFigure, payableAud } from './funding';
import {
  EMPTY_TRANSFER,
  FIAT_TYPING,
  normalize,
  type TTransferFields,
  transferDraftOf,
} from './transfer-draft';
import { transferErrorText } from './transfer-error-text';

/** One error toast at a time; a later success dismisses it. */
const ERROR_TOAST = 'bank-transfer-error';

/**
 * The bank transfer form: the fields, the request they make at the rate of the moment, what
 * stops it (closed, nothing to pay from, over today's limit), and the request confirmed
 * with a step-up.
 */
export function useBankTransferForm() {
  const navigate = useNavigate();
  const prices = usePrices();
  const wallets = useWallets();
  const status = useMoneyStatus();
  const create = useCreateBankTransfer();
  const idempotency = useIdempotencyKey();
  const [asking, setAsking] = useState<TBankTransferDraft | null>(null);

  const rate = prices.data?.audUsd.rate ?? DEFAULT_AUD_USD_RATE;
  const draftOf = (fields: TTransferFields) =>
    transferDraftOf(fields, rate, wallets.data, prices.data);

  // The balance that no longer covers the amount (it changed after the asset was chosen) is
  // refused only once the schema has nothing to say.
  const check = (fields: TTransferFields, found: TFormErrors<TTransferFields>) => {
    const { chosen } = draftOf(fields);
    if (Object.keys(found).length > 0 || !chosen || chosen.enough) return {};
    return {
      assetId: `Insufficient balance. You have ${cryptoFigure(chosen.available, chosen.asset)} available`,
    };
  };
  const form = useZodForm<TTransferFields>(ZBankTransferDraft, EMPTY_TRANSFER, {
    input: (fields) => draftOf(fields).request,
    check,
  });

  const fields = form.watch();
  const { aud, usd, options, chosen } = draftOf(fields);
  const closed = status.data?.maintenanceMode
    ? MONEY_MSG.maintenance
    : status.data && !status.data.withdrawalsEnabled
      ? MONEY_MSG.withdrawalsDisabled
      : null;
  const nothingToPayFrom = wallets.data !== undefined && options.length === 0;
  // The server refuses a payout above what is left of today's limit; say so beforehand.
  const usdValue = payableAud(normalize(aud)) !== null ? normalize(usd) : null;
  const overLimit =
    status.data && usdValue && compareAmounts(usdValue, status.data.remainingTodayUsd) > 0
      ? `This transfer is worth about ${formatUsd(usdValue)}, more than the ${formatUsd(status.data.remainingTodayUsd)} you can still withdraw today.`
      : null;

  function onAmount(currency: 'AUD' | 'USD', typed: string) {
    if (!FIAT_TYPING.test(typed)) return;
    // Clearing either field clears both.
    form.setValue('currency', currency);
    form.setValue(currency === 'AUD' ? 'amountAud' : 'amountUsd', typed);
    form.clearErrors(['amountAud', 'assetId']);
    form.clearErrors('root');
  }

  function onAsset(id: string) {
    form.setValue('assetId', id);
    form.clearErrors('assetId');
    form.clearErrors('root');
  }

  function fillSaved(details: TBankDetails) {
    form.setValue('accountName', details.fullName);
    form.setValue('bsbNumber', formatBsb(details.bsb));
    form.setValue('accountNumber', details.accountNumber);
    form.clearErrors(['accountName', 'bsbNumber', 'accountNumber']);
  }

  function onSubmit(values: TTransferFields) {
    if (create.isPending || closed || nothingToPayFrom) return;
    const parsed = ZBankTransferDraft.safeParse(draftOf(values).request);
    if (!parsed.success) return;
    // The request leaves with a fresh second factor, asked for in the dialog.
    setAsking(parsed.data);
  }

  /** Sends the request with the step-up; a refusal of the code stays in the dialog. */
  async function confirm(draft: TBankTransferDraft, stepUp: TStepUp) {
    // The key stands for the request without its code: a retry with a new code is the same.
    const idempotencyKey = idempotency.keyFor(draft);
    try {
      await create.mutateAsync({ body: { ...draft, stepUp }, idempotencyKey });
    } catch (err) {
      console.error('The bank transfer request failed', err);
      idempotency.settle(err);
      throw err;
    }
    idempotency.settle();
    setAsking(null);
    toast.dismiss(ERROR_TOAST);
    toast.success('Success', { description: 'Bank transfer request submitted successfully' });
    void navigate('/dashboard/history');
  }

  function failed(err: unknown) {
    setAsking(null);
    const text = showServerError(form, err, transferErrorText);
    toast.error('Error', { id: ERROR_TOAST, description: text });
  }

  return {
    form,
    fields,
    prices,
    wallets,
    rate,
    aud,
    usd,
    options,
    chosen,
    closed,
    nothingToPayFrom,
    overLimit,
    pending: create.isPending,
    asking,
    setAsking,
    onAmount,
    onAsset,
    fillSaved,
    onSubmit,
    confirm,
    failed,
  };
}

export type TBankTransferForm = ReturnType<typeof useBankTransferForm>;
