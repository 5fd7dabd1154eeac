import { cleanTotpInput, TOTP_DIGITS } from '@coffer/shared';
import { FormField } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { cn } from '@web/lib/cn';
import type { InputHTMLAttributes } from 'react';
import { useFormContext } from 'react-hook-form';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  value: string;
  /** Receives the digits only, at most six. */
  onCodeChange: (code: string) => void;
};

/** The 6-digit authenticator code field: digits only, numeric keyboard, one-time-code autofill. */
export function TotpCodeInput({ value, onCodeChange, className, ...props }: Props) {
  return (
    <Input
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={TOTP_DIGITS}
      placeholder="000000"
      value={value}
      onChange={(e) => onCodeChange(cleanTotpInput(e.target.value))}
      className={cn('text-center font-mono text-lg tracking-[0.4em]', className)}
      {...props}
    />
  );
}

/**
 * The code field of a form on the layer: its label, its message under it, and a new code
 * clearing the refusal of the last one.
 */
export function TotpCodeField({
  name = 'code',
  className,
  ...field
}: {
  name?: string;
  label: string;
  id?: string;
  hint?: string;
  hintId?: string;
  describedBy?: string[];
  /** The input's own classes (its width). */
  className?: string;
}) {
  const { clearErrors } = useFormContext();
  return (
    <FormField name={name} {...field}>
      {({ onChange, value, ...control }) => (
        <TotpCodeInput
          {...control}
          value={value}
          onCodeChange={(next) => {
            onChange({ target: { value: next } });
            clearErrors(name);
          }}
          className={className}
        />
      )}
    </FormField>
  );
}
