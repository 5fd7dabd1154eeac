import type { ReactNode } from 'react';

/** One read-only line of a settings card: a term and its value, inside a `<dl>`. */
export function SettingRow({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3">
      <dt className="text-sm font-medium text-fg">{term}</dt>
      <dd className="min-w-0 text-sm text-muted">{children}</dd>
    </div>
  );
}
