import { ADMIN_WALLET_MSG, type TProposedResponse, type TStepUp } from '@coffer/shared';
import { AddressInput } from '@web/components/admin/address-input';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Form, FormField, FormMessage, showServerError, useZodForm } from '@web/components/ui/form';
import { Label } from '@web/components/ui/label';
import { Switch } from '@web/components/ui/switch';
import { errorMessage } from '@web/lib/api-client';
import { tellProposed } from '@web/lib/staff';
import { useId, useState } from 'react';
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
  /**
   * Proposes the trimmed address with the admin's step-up (202: it applies when another
   * staff member approves); a refusal keeps the form open with the reason.
   */
  save: (address: string, isActive: boolean, stepUp: TStepUp) => Promise<TProposedResponse>;
  /** What the step-up dialog says is being proposed. */
  describe: (address: string) => string;
  pending: boolean;
  saveText: string;
  failedText: string;
  onDone: () => void;
};

/** An address edited in place in a table row; an empty address is refused. */
export function AddressEditForm({
  label,
  initial,
  active,
  save,
  describe,
  pending,
  saveText,
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

  // A checked address waits for the admin's fresh second factor (step-up).
  const [asking, setAsking] = useState<TFields | null>(null);

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    const answer = await save(asking.address.trim(), asking.isActive, stepUp);
    setAsking(null);
    tellProposed(answer);
    onDone();
  }

  function failed(err: unknown) {
    setAsking(null);
    const message = showServerError(
      form,
      err,
      (e) => errorMessage(e, failedText),
      () => 'address',
    );
    toast.error(failedText, { description: message });
  }

  return (
    <Form form={form} onSubmit={(values) => setAsking(values)} className="w-full space-y-2">
      <StepUpDialog
        open={asking !== null}
        title="Confirm the address change"
        description={asking ? describe(asking.address.trim()) : ''}
        confirmLabel="Propose"
        pendingLabel="Proposing..."
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
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
