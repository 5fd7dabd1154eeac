import { ADMIN_WALLET_MSG } from '@coffer/shared';
import { AddressInput } from '@web/components/admin/address-input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { toast } from 'sonner';
import { EditFormActions } from './edit-form-actions';

type Props = {
  /** The field's label, naming the asset and network. */
  label: string;
  initial: string;
  /** Stores the trimmed address; a rejection keeps the form open with the reason. */
  save: (address: string) => Promise<unknown>;
  pending: boolean;
  saveText: string;
  savedText: string;
  failedText: string;
  onDone: () => void;
  /** More fields, shown below the address. */
  children?: ReactNode;
};

/** An address edited in place in a table row; an empty address is refused. */
export function AddressEditForm({
  label,
  initial,
  save,
  pending,
  saveText,
  savedText,
  failedText,
  onDone,
  children,
}: Props) {
  const id = useId();
  const [address, setAddress] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (address.trim() === '') {
      setError(ADMIN_WALLET_MSG.addressEmpty);
      return;
    }
    setError(null);
    try {
      await save(address.trim());
      toast.success(savedText);
      onDone();
    } catch (err) {
      const message = errorMessage(err, failedText);
      setError(message);
      toast.error(failedText, { description: message });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="w-full space-y-2">
      <Label htmlFor={`${id}-address`}>{label}</Label>
      <AddressInput
        id={`${id}-address`}
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <EditFormActions saveText={saveText} pending={pending} onCancel={onDone} />
    </form>
  );
}
