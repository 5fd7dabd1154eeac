import { cn } from '@web/lib/cn';
import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';

const FIELD =
  'w-full rounded-md border border-border bg-surface px-3 text-fg placeholder:text-muted ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary ' +
  'disabled:opacity-60 aria-[invalid=true]:border-danger';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(FIELD, 'h-10 text-sm', className)} {...props} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(FIELD, 'py-2 text-sm', className)} {...props} />;
}
