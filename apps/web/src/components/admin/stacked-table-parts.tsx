import { cn } from '@web/lib/cn';
import type { ReactNode } from 'react';
import { STACKED } from './stacked-table';

/**
 * A table laid out with STACKED whose last column holds each row's actions. The columns
 * named in `alignRight` are right-aligned, to sit above the numbers in them.
 */
export function StackedTable({
  columns,
  alignRight = [],
  children,
}: {
  columns: readonly string[];
  alignRight?: readonly string[];
  children: ReactNode;
}) {
  return (
    <table className={STACKED.table}>
      <thead className={STACKED.head}>
        <tr>
          {columns.map((name) => (
            <th
              key={name}
              className={cn(STACKED.headCell, alignRight.includes(name) && 'text-right')}
            >
              {name}
            </th>
          ))}
          <th className={STACKED.headCell}>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className={STACKED.body}>{children}</tbody>
    </table>
  );
}

/** A value cell; a stacked row shows `label`, its column's name, beside the value. */
export function StackedCell({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td data-label={label} className={cn(STACKED.cell, className)}>
      {children}
    </td>
  );
}

/** A row's buttons: across a stacked card, at the end of the row on wide screens. */
export function ActionsCell({ children }: { children: ReactNode }) {
  return (
    <td className={STACKED.wideCell}>
      <div className="flex flex-wrap gap-2 md:justify-end">{children}</div>
    </td>
  );
}
