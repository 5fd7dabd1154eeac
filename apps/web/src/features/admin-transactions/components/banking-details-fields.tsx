import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { SELECT_CLASS } from '@web/components/ui/select';
import type { UseFormReturn } from 'react-hook-form';
import type { TTransactionFields } from './transaction-fields';

/** Where a bank transfer is paid to; a customer's own request keeps what they confirmed. */
export function BankingDetailsFields({
  form,
  field,
  locked,
}: {
  form: UseFormReturn<TTransactionFields>;
  field: (name: string) => string;
  locked: boolean;
}) {
  const f = form.watch();
  return (
    <fieldset disabled={locked} className="space-y-3 rounded-lg border border-border p-4">
      <legend className="px-1 text-sm font-semibold">Banking Details</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={field('account-name')}>Account name</Label>
          <Input
            id={field('account-name')}
            value={f.accountName}
            onChange={(e) => form.setValue('accountName', e.target.value)}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={field('account-number')}>Account number</Label>
          <Input
            id={field('account-number')}
            inputMode="numeric"
            value={f.accountNumber}
            onChange={(e) => form.setValue('accountNumber', e.target.value)}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={field('bsb')}>BSB number</Label>
          <Input
            id={field('bsb')}
            inputMode="numeric"
            maxLength={6}
            value={f.bsbNumber}
            onChange={(e) => form.setValue('bsbNumber', e.target.value)}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={field('bank-currency')}>Currency</Label>
          <select
            id={field('bank-currency')}
            className={SELECT_CLASS}
            value={f.bankCurrency}
            onChange={(e) =>
              form.setValue('bankCurrency', e.target.value === 'USD' ? 'USD' : 'AUD')
            }
          >
            <option value="AUD">AUD</option>
            <option value="USD">USD</option>
          </select>
        </div>
      </div>
    </fieldset>
  );
}
