import {
  ASSETS,
  compareAmounts,
  MONEY_MSG,
  type TBankDetails,
  type TBankTransferDraft,
  type TStepUp,
  ZBankTransferDraft,
} from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { BackLink } from '@web/components/ui/back-link';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import {
  Form,
  FormError,
  FormField,
  showServerError,
  type TFormErrors,
  useFieldMessage,
  useZodForm,
} from '@web/components/ui/form';
import { LoadFailedAlert } from '@web/components/ui/load-failed-alert';
import { formatUsd } from '@web/lib/money/format';
import { useMoneyStatus } from '@web/lib/money/get-money-status';
import { DEFAULT_AUD_USD_RATE, usePrices } from '@web/lib/money/get-prices';
import { useWallets } from '@web/lib/money/get-wallets';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useCreateBankTransfer } from '../api/create-bank-transfer';
import { useBankDetails } from '../api/get-bank-details';
import { formatBsb } from './bsb';
import { cryptoFigure, payableAud } from './funding';
import { PayFrom } from './pay-from';
import { SavedDetailsBar } from './saved-details-bar';
import { TransferAmountFields } from './transfer-amount-fields';
import {
  EMPTY_TRANSFER,
  FIAT_TYPING,
  normalize,
  type TTransferFields,
  transferDraftOf,
} from './transfer-draft';
import { transferErrorText } from './transfer-error-text';
import { TransferNotes } from './transfer-notes';
import { TransferSummary } from './transfer-summary';

/** One error toast at a time; a later success dismisses it. */
const ERROR_TOAST = 'bank-transfer-error';

/** The asset's message under "Pay from", read from the form. */
function PayFromField(props: Omit<Parameters<typeof PayFrom>[0], 'error'>) {
  return <PayFrom {...props} error={useFieldMessage('assetId')} />;
}

/**
 * /bank-transfer: a request to pay AUD to the customer's bank account, funded from one of
 * their assets (product.md M11): the server converts at its rates and holds that amount,
 * as it holds a withdrawal, until staff pay it out (debited) or reject it (released).
 */
export default function BankTransferPage() {
  const navigate = useNavigate();
  const prices = usePrices();
  const wallets = useWallets();
  const status = useMoneyStatus();
  const saved = useBankDetails();
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

  return (
    <div className="mx-auto w-full max-w-2xl space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold text-fg">Bank Transfer</h1>
          <CardDescription>
            Request a transfer in AUD to your Australian bank account, paid from one of your
            balances.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {closed ? (
            <Alert variant="danger" role="alert" title="Bank transfers unavailable">
              {closed}
            </Alert>
          ) : null}
          {wallets.isError && !wallets.data ? (
            <LoadFailedAlert
              title="Your balances could not be loaded"
              error={wallets.error}
              fallback="Failed to load wallet data"
              onRetry={() => void wallets.refetch()}
            />
          ) : null}

          <SavedDetailsBar
            details={saved.data?.details ?? null}
            loading={saved.isPending}
            onUse={fillSaved}
          />

          <Form form={form} onSubmit={onSubmit} className="space-y-5">
            <FormField
              name="accountName"
              id="bank-accountName"
              label="Account name"
              className="space-y-2"
              autoComplete="name"
              maxLength={140}
            />
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField
                name="accountNumber"
                id="bank-accountNumber"
                label="Account number"
                className="space-y-2"
                inputMode="numeric"
                autoComplete="off"
                maxLength={10}
                hint="6 to 10 digits."
                // Digits only, as the bank-details form takes it.
                transform={(typed) => typed.replace(/\D/g, '').slice(0, 10)}
              />
              <FormField
                name="bsbNumber"
                id="bank-bsbNumber"
                label="BSB number / sort code"
                className="space-y-2"
                inputMode="numeric"
                autoComplete="off"
                maxLength={7}
                placeholder="123-456"
                transform={formatBsb}
              />
            </div>

            <TransferAmountFields
              aud={aud}
              usd={usd}
              rate={rate}
              defaultRate={prices.data !== undefined && !prices.data.audUsd.live}
              overLimit={overLimit}
              onAmount={onAmount}
            />

            <PayFromField
              options={options}
              loading={wallets.isPending}
              value={fields.assetId}
              onChange={onAsset}
            />

            {aud !== '' && usd !== '' && !nothingToPayFrom ? (
              <TransferSummary aud={aud} usd={usd} rate={rate} option={chosen} />
            ) : null}

            <TransferNotes />

            <FormError />

            <Button
              type="submit"
              size="lg"
              className="w-full"
              disabled={create.isPending || aud === '' || closed !== null || nothingToPayFrom}
            >
              {create.isPending ? 'Submitting...' : 'Submit Bank Transfer Request'}
            </Button>
          </Form>
          <StepUpDialog
            open={asking !== null}
            title="Confirm your bank transfer"
            description={
              asking
                ? `A$${asking.amountAud} to ${asking.accountName}, BSB ${formatBsb(asking.bsbNumber)}, account ${asking.accountNumber}. Paid from ${ASSETS[asking.assetId].label}.`
                : ''
            }
            confirmLabel="Confirm transfer"
            pendingLabel="Submitting..."
            onCancel={() => setAsking(null)}
            onConfirm={(stepUp) => (asking ? confirm(asking, stepUp) : Promise.resolve())}
            onFailure={failed}
          />
        </CardContent>
      </Card>
    </div>
  );
}
