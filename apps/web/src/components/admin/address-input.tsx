import type { InputHTMLAttributes } from 'react';
import { Input } from '../ui/input';

/** A field for a crypto address: monospace, and neither autocompleted nor spell-checked. */
export function AddressInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'className'>) {
  return <Input className="font-mono" autoComplete="off" spellCheck={false} {...props} />;
}
