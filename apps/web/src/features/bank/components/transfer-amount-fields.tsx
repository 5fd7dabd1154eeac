import { formatRounded } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { FormMessage, useFieldMessage } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { cn } from '@web/lib/cn';

/**
 * The amount, typed in AUD or in USD: the other one shows the conversion at the rate below.
 * The request is in AUD, so the one message is the AUD amount's, under the rate.
 */
export function TransferAmountFields({
  aud,
  usd,
  rate,
  defaultRate,
  overLimit,
  onAmount,
}: {
  aud: string;
  usd: string;
  rate: string;
  /** The rate is the default one: the live rate could not be had. */
  defaultRate: boolean;
  overLimit: string | null;
  onAmount: (currency: 'AUD' | 'USD', typed: string) => void;
}) {
  const message = useFieldMessage('amountAud');
  return (
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
            aria-invalid={message ? true : undefined}
            aria-describedby={cn('bank-rate', message ? 'bank-amountAud-error' : null)}
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
        Rate: 1 AUD = {formatRounded(rate, 4, false) ?? rate} USD
        {defaultRate ? ' (live rate unavailable, using the default rate)' : ''}
      </p>
      <FormMessage name="amountAud" id="bank-amountAud-error" />
      {overLimit ? (
        <Alert variant="warning" role="status">
          {overLimit}
        </Alert>
      ) : null}
    </fieldset>
  );
}
