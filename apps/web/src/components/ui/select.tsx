import { Label } from './label';

/** A native select that looks like the inputs (an invalid one has the inputs' red border). */
export const SELECT_CLASS =
  'h-10 w-full rounded-md border border-border bg-surface px-3 text-sm text-fg ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary ' +
  'disabled:opacity-60 aria-[invalid=true]:border-danger';

/**
 * A labelled choice that applies as it changes (a list filter): its options as
 * `[value, text]` pairs, the first usually the "all" choice with an empty value.
 */
export function SelectField({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
