import { ADMIN_TRANSACTION_TYPES } from '@coffer/shared';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { SELECT_CLASS } from '@web/components/ui/select';
import type { UseFormReturn } from 'react-hook-form';
import { TransactionAmountFields } from './transaction-amount-fields';
import { isAdminType, type TTransactionFields, TYPE_LABELS } from './transaction-fields';

/** The type, the asset and amounts, the status, the date and the hash or bank reference. */
export function TransactionDetailFields({
  form,
  field,
  locked,
}: {
  form: UseFormReturn<TTransactionFields>;
  field: (name: string) => string;
  locked: boolean;
}) {
  const f = form.watch();
  const bank = f.type === 'bank_transfer';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="space-y-1.5">
        <Label htmlFor={field('type')}>Type</Label>
        <select
          id={field('type')}
          className={SELECT_CLASS}
          value={f.type}
          onChange={(e) => {
            const next = e.target.value;
            if (isAdminType(next)) form.setValue('type', next);
          }}
        >
          {ADMIN_TRANSACTION_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <TransactionAmountFields form={form} field={field} locked={locked} />
      <div className="space-y-1.5">
        <Label htmlFor={field('status')}>Status</Label>
        <select
          id={field('status')}
          className={SELECT_CLASS}
          value={f.status}
          onChange={(e) => {
            const v = e.target.value;
            if (v === 'pending' || v === 'completed' || v === 'failed') {
              form.setValue('status', v);
            }
          }}
        >
          <option value="pending">Pending</option>
          <option value="completed">Completed</option>
          <option value="failed">Failed</option>
        </select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={field('date')}>Date and time</Label>
        <Input
          id={field('date')}
          type="datetime-local"
          value={f.date}
          onChange={(e) => form.setValue('date', e.target.value)}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={field('hash')}>
          {bank ? 'Bank reference (optional)' : 'Transaction hash (optional)'}
        </Label>
        <Input
          id={field('hash')}
          autoComplete="off"
          value={f.transactionHash}
          onChange={(e) => form.setValue('transactionHash', e.target.value)}
        />
      </div>
    </div>
  );
}
