import { ADMIN_WALLET_MSG } from '@coffer/shared';
import { AddressInput } from '@web/components/admin/address-input';
import { Form, FormField, FormMessage, showServerError, useZodForm } from '@web/components/ui/form';
import { Label } from '@web/components/ui/label';
import { Switch } from '@web/components/ui/switch';
import { errorMessage } from '@web/lib/api-client';
import { useId } from 'react';
import { toast } from 'sonner';
import { EditFormActions } from './edit-form-actions';

type TFields = { address: string; isActive: boolean };

type Props = {
  /** The field's label, naming the asset and network. */
  label: string;
  initial: string;
  /**
   * With this, the form also has the Active switch (a deposit address the customer sees or
   * not), labelled so and starting from `initial`.
   */
  active?: { label: string; initial: boolean };
  /** Stores the trimmed address; a rejection keeps the form open with the reason. */
  save: (address: string, isActive: boolean) => Promise<unknown>;
  pending: boolean;
  saveText: string;
  savedText: string;
  failedText: string;
  onDone: () => void;
};

/** An address edited in place in a table row; an empty address is refused. */
export function AddressEditForm({
  label,
  initial,
  active,
  save,
  pending,
  saveText,
  savedText,
  failedText,
  onDone,
}: Props) {
  const id = useId();
  const form = useZodForm<TFields>(
    null,
    { address: initial, isActive: active?.initial ?? true },
    {
      check: ({ address }) =>
        address.trim() === '' ? { address: ADMIN_WALLET_MSG.addressEmpty } : {},
    },
  );

  async function onSubmit(values: TFields) {
    try {
      await save(values.address.trim(), values.isActive);
      toast.success(savedText);
      onDone();
    } catch (err) {
      const message = showServerError(
        form,
        err,
        (e) => errorMessage(e, failedText),
        () => 'address',
      );
      toast.error(failedText, { description: message });
    }
  }

  return (
    <Form form={form} onSubmit={onSubmit} className="w-full space-y-2">
      <FormField
        name="address"
        id={`${id}-address`}
        label={label}
        messageId={`${id}-error`}
        className="space-y-2"
      >
        {(control) => <AddressInput {...control} autoFocus />}
      </FormField>
      {active ? (
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-active`}
            checked={form.watch('isActive')}
            onCheckedChange={(on) => form.setValue('isActive', on)}
          />
          <Label htmlFor={`${id}-active`}>{active.label}</Label>
        </div>
      ) : null}
      <FormMessage name="address" id={`${id}-error`} />
      <EditFormActions saveText={saveText} pending={pending} onCancel={onDone} />
    </Form>
  );
}
