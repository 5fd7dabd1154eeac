import {
  ASSETS,
  compareAmounts,
  convertFiat,
  MONEY_MSG,
  type TBankTransferDraft,
  type TStepUp,
  ZBankTransferDraft,
} from '@coffer/shared';
import { BookUser } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Alert } from '../../../components/ui/alert';
import { BackLink } from '../../../components/ui/back-link';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { LoadFailedAlert } from '../../../components/ui/load-failed-alert';
import { firstErrorByField } from '../../../lib/field-errors';
import { formatUsd, roundDecimal } from '../../../lib/money/format';
import { useMoneyStatus } from '../../../lib/money/get-money-status';
import { DEFAULT_AUD_USD_RATE, usePrices } from '../../../lib/money/get-prices';
import { useWallets } from '../../../lib/money/get-wallets';
import { useIdempotencyKey } from '../../../lib/money/idempotency';
import { useCreateBankTransfer } from '../api/create-bank-transfer';
import { useBankDetails } from '../api/get-bank-details';
import { formatBsb } from './bsb';
import { cryptoFigure, fundingOptions, payableAud, type TFundingOption } from './funding';
import { PayFrom } from './pay-from';
import { transferErrorText } from './transfer-error-text';

type Field = keyof TBankTransferDraft;

/** One error toast at a time; a later success dismisses it. */
const ERROR_TOAST = 'bank-transfer-error';
type Errors = Partial<Record<Field, string>>;

/** What may be typed into a money field: digits, one point, at most two decimals. */
const FIAT_TYPING = /^\d{0,12}(\.\d{0,2})?$/;

/** A typed amount as a plain decimal: '12.' is '12', '.5' is '0.5'. */
function normalize(typed: string): string {
  const trimmed = typed.endsWith('.') ? typed.slice(0, -1) : typed;
  return trimmed.startsWith('.') ? `0${trimmed}` : trimmed;
}

/** The converted counterpart of a typed amount, or '' while it is not a number yet ('.'). */
function convert(typed: string, rate: string, direction: 'aud-to-usd' | 'usd-to-aud'): string {
  const value = normalize(typed);
  if (!/^\d+(\.\d+)?$/.test(value)) return '';
  try {
    return convertFiat(value, rate, direction);
  } catch {
    return '';
  }
}

function StatementNote() {
  const status = useMoneyStatus();
  if (status.data) {
    return (
      <li>
        Deposits will appear on your bank statement as "{status.data.bankStatementDescriptor}"
      </li>
    );
  }
  return (
    <li>
      {status.isError
        ? 'The name deposits appear under on your bank statement could not be loaded; contact support before relying on it.'
        : 'Loading the name deposits appear under on your bank statement...'}
    </li>
  );
}

/**
 * What the customer is about to ask for, before submitting: the AUD paid out, what is held
 * from the chosen asset, and the rates that figure comes from.
 */
function Summary({
  aud,
  usd,
  rate,
  option,
}: {
  aud: string;
  usd: string;
  rate: string;
  option: TFundingOption | undefined;
}) {
  return (
    <section
      aria-labelledby="bank-summary"
      aria-live="polite"
      className="space-y-1 rounded-lg border border-border p-4 text-sm"
    >
      <h2 id="bank-summary" className="font-semibold text-fg">
        Summary
      </h2>
      <p className="text-fg">
        You request A${aud} (about US${usd}). The AUD amount is what is paid out.
      </p>
      {option?.need != null && option.priceUsd !== null ? (
        <>
          <p className={option.enough ? 'text-fg' : 'text-danger'}>
            Held from your {option.asset.symbol}:{' '}
            <span className="font-semibold tabular-nums">
              {cryptoFigure(option.need, option.asset)}
            </span>
          </p>
          <p className="text-muted">
            At 1 AUD = {roundDecimal(rate, 4, false) ?? rate} USD and 1 {option.asset.symbol} ={' '}
            {formatUsd(option.priceUsd)}. It is paid out of that hold once the transfer is
            processed, and released back to your balance if the transfer is rejected.
          </p>
        </>
      ) : (
        <p className="text-muted">Choose what to pay from to see the amount held.</p>
      )}
    </section>
  );
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

  const [accountName, setAccountName] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [bsbNumber, setBsbNumber] = useState('');
  const [assetId, setAssetId] = useState('');
  // The amount as typed, in the currency typed; the other one is derived from the rate.
  const [typed, setTyped] = useState<{ currency: 'AUD' | 'USD'; value: string }>({
    currency: 'AUD',
    value: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [asking, setAsking] = useState<TBankTransferDraft | null>(null);

  const rate = prices.data?.audUsd.rate ?? DEFAULT_AUD_USD_RATE;
  const rateLive = prices.data?.audUsd.live === true;
  const aud = typed.currency === 'AUD' ? typed.value : convert(typed.value, rate, 'usd-to-aud');
  const usd = typed.currency === 'USD' ? typed.value : convert(typed.value, rate, 'aud-to-usd');
  const closed = status.data?.maintenanceMode
    ? MONEY_MSG.maintenance
    : status.data && !status.data.withdrawalsEnabled
      ? MONEY_MSG.withdrawalsDisabled
      : null;
  const details = saved.data?.details ?? null;

  const options = fundingOptions(wallets.data, prices.data, payableAud(normalize(aud)));
  const nothingToPayFrom = wallets.data !== undefined && options.length === 0;
  const chosen = options.find((o) => o.asset.id === assetId);
  // The server refuses a payout above what is left of today's limit; say so beforehand.
  const usdValue = payableAud(normalize(aud)) !== null ? normalize(usd) : null;
  const overLimit =
    status.data && usdValue && compareAmounts(usdValue, status.data.remainingTodayUsd) > 0
      ? `This transfer is worth about ${formatUsd(usdValue)}, more than the ${formatUsd(status.data.remainingTodayUsd)} you can still withdraw today.`
      : null;

  function onAmount(currency: 'AUD' | 'USD', value: string) {
    if (!FIAT_TYPING.test(value)) return;
    // Clearing either field clears both.
    setTyped({ currency, value });
    setErrors((e) => ({ ...e, amountAud: undefined, assetId: undefined }));
    setFormError(null);
  }

  function onAsset(id: string) {
    setAssetId(id);
    setErrors((e) => ({ ...e, assetId: undefined }));
    setFormError(null);
  }

  function fillSaved() {
    if (!details) return;
    setAccountName(details.fullName);
    setBsbNumber(formatBsb(details.bsb));
    setAccountNumber(details.accountNumber);
    setErrors((e) => ({
      ...e,
      accountName: undefined,
      bsbNumber: undefined,
      accountNumber: undefined,
    }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending || closed || nothingToPayFrom) return;
    setFormError(null);
    const parsed = ZBankTransferDraft.safeParse({
      accountNumber,
      accountName,
      bsbNumber,
      amountAud: normalize(aud),
      assetId: chosen?.asset.id,
    });
    if (!parsed.success) {
      setErrors(firstErrorByField<Field>(parsed.error.issues));
      return;
    }
    // The amount changed after the asset was chosen and its balance no longer covers it.
    if (chosen && !chosen.enough) {
      setErrors({
        assetId: `Insufficient balance. You have ${cryptoFigure(chosen.available, chosen.asset)} available`,
      });
      return;
    }
    setErrors({});
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
    const text = transferErrorText(err);
    setFormError(text);
    toast.error('Error', { id: ERROR_TOAST, description: text });
  }

  const invalid = (field: Field) => (errors[field] ? true : undefined);
  const describedBy = (field: Field, extra?: string) =>
    [extra, errors[field] ? `bank-${field}-error` : null].filter(Boolean).join(' ') || undefined;

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

          <div className="flex flex-col gap-3 rounded-lg border border-border bg-surface-2 p-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex items-start gap-3 text-sm">
              <BookUser className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden />
              {details ? (
                <p className="text-fg">
                  Saved details: {details.fullName}, BSB {formatBsb(details.bsb)}, account ending{' '}
                  {details.accountNumber.slice(-4)}
                </p>
              ) : (
                <p className="text-muted">
                  {saved.isPending
                    ? 'Loading your saved bank details...'
                    : 'Save your bank details once and fill them in with one click.'}
                </p>
              )}
            </div>
            <div className="flex shrink-0 flex-wrap gap-2 pl-7 sm:pl-0">
              {details ? (
                <Button
                  size="sm"
                  variant="secondary"
                  className="whitespace-nowrap"
                  onClick={fillSaved}
                >
                  Use saved details
                </Button>
              ) : null}
              <Button asChild size="sm" variant="outline" className="whitespace-nowrap">
                <Link to="/bank-details">
                  {details ? 'Edit bank details' : 'Save bank details'}
                </Link>
              </Button>
            </div>
          </div>

          <form onSubmit={onSubmit} noValidate className="space-y-5">
            <div className="space-y-2">
              <Label htmlFor="bank-accountName">Account name</Label>
              <Input
                id="bank-accountName"
                autoComplete="name"
                maxLength={140}
                value={accountName}
                onChange={(e) => setAccountName(e.target.value)}
                aria-invalid={invalid('accountName')}
                aria-describedby={describedBy('accountName')}
              />
              <FieldError id="bank-accountName-error" message={errors.accountName} />
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <div className="space-y-2">
                <Label htmlFor="bank-accountNumber">Account number</Label>
                <Input
                  id="bank-accountNumber"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={10}
                  value={accountNumber}
                  // Digits only, as the bank-details form takes it.
                  onChange={(e) => setAccountNumber(e.target.value.replace(/\D/g, '').slice(0, 10))}
                  aria-invalid={invalid('accountNumber')}
                  aria-describedby={describedBy('accountNumber', 'bank-accountNumber-hint')}
                />
                <p id="bank-accountNumber-hint" className="text-xs text-muted">
                  6 to 10 digits.
                </p>
                <FieldError id="bank-accountNumber-error" message={errors.accountNumber} />
              </div>
              <div className="space-y-2">
                <Label htmlFor="bank-bsbNumber">BSB number / sort code</Label>
                <Input
                  id="bank-bsbNumber"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={7}
                  placeholder="123-456"
                  value={bsbNumber}
                  onChange={(e) => setBsbNumber(formatBsb(e.target.value))}
                  aria-invalid={invalid('bsbNumber')}
                  aria-describedby={describedBy('bsbNumber')}
                />
                <FieldError id="bank-bsbNumber-error" message={errors.bsbNumber} />
              </div>
            </div>

            <fieldset className="space-y-3">
              <legend className="text-sm font-medium text-fg">Amount</legend>
              <div className="grid gap-5 sm:grid-cols-2">
                <div className="space-y-2">
                  <Label htmlFor="bank-amount-aud">Amount (AUD)</Label>
                  <Input
                    id="bank-amount-aud"
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="0.00"
                    value={aud}
                    onChange={(e) => onAmount('AUD', e.target.value)}
                    aria-invalid={invalid('amountAud')}
                    aria-describedby={describedBy('amountAud', 'bank-rate')}
                  />
                </div>
                <div className="space-y-2">
                  <Label htmlFor="bank-amount-usd">Amount (USD)</Label>
                  <Input
                    id="bank-amount-usd"
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="0.00"
                    value={usd}
                    onChange={(e) => onAmount('USD', e.target.value)}
                    aria-describedby="bank-rate"
                  />
                </div>
              </div>
              <p id="bank-rate" className="text-sm text-muted">
                Rate: 1 AUD = {roundDecimal(rate, 4, false) ?? rate} USD
                {prices.data && !rateLive ? ' (live rate unavailable, using the default rate)' : ''}
              </p>
              <FieldError id="bank-amountAud-error" message={errors.amountAud} />
              {overLimit ? (
                <Alert variant="warning" role="status">
                  {overLimit}
                </Alert>
              ) : null}
            </fieldset>

            <PayFrom
              options={options}
              loading={wallets.isPending}
              value={assetId}
              onChange={onAsset}
              error={errors.assetId}
            />

            {aud !== '' && usd !== '' && !nothingToPayFrom ? (
              <Summary aud={aud} usd={usd} rate={rate} option={chosen} />
            ) : null}

            <section
              aria-labelledby="bank-notes"
              className="rounded-lg border border-border bg-surface-2 p-4"
            >
              <h2 id="bank-notes" className="text-sm font-semibold text-fg">
                Important Notes
              </h2>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted">
                <li>Bank transfers are processed within 1-3 business days.</li>
                <li>
                  The transfer is paid from the balance you choose: the amount is converted at our
                  rates when you submit and held from that asset until the transfer is processed. If
                  the transfer is rejected, the hold is released back to your balance.
                </li>
                <li>
                  Check your account name, account number and BSB carefully before you submit.
                </li>
                <li>You will receive a confirmation email once the transfer has been processed.</li>
                <li>To change a request after submitting it, contact support.</li>
                <li>Exchange rates update in real time and may fluctuate.</li>
                <StatementNote />
              </ul>
            </section>

            <FieldError message={formError} />

            <Button
              type="submit"
              size="lg"
              className="w-full"
              disabled={create.isPending || aud === '' || closed !== null || nothingToPayFrom}
            >
              {create.isPending ? 'Submitting...' : 'Submit Bank Transfer Request'}
            </Button>
          </form>
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
