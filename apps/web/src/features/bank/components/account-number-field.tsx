import { FormField } from '@web/components/ui/form';

/**
 * An Australian account number, as both bank forms take it: digits only (anything else
 * typed is dropped), 6 to 10 of them.
 */
export function AccountNumberField({ id }: { id: string }) {
  return (
    <FormField
      name="accountNumber"
      id={id}
      label="Account number"
      className="space-y-2"
      inputMode="numeric"
      autoComplete="off"
      maxLength={10}
      hint="6 to 10 digits."
      transform={(typed) => typed.replace(/\D/g, '').slice(0, 10)}
    />
  );
}
