import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '../ui/card';

const numberFormat = new Intl.NumberFormat('en-US');

/** The row of headline counts at the top of an admin screen: two a row, four from 1024 px. */
export function SummaryGrid({ children }: { children: ReactNode }) {
  return (
    <section aria-label="Summary" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {children}
    </section>
  );
}

/** One headline count, with an optional line saying what it counts. */
export function SummaryCard({
  title,
  value,
  note,
  icon: Icon,
}: {
  title: string;
  value: number;
  note?: string;
  icon: LucideIcon;
}) {
  return (
    <Card className="min-w-0">
      <CardContent className="flex items-start justify-between gap-3 pt-5">
        <div className="min-w-0">
          <h2 className="text-sm font-medium text-muted">{title}</h2>
          <p className="text-2xl font-bold tabular-nums text-fg [overflow-wrap:anywhere]">
            {numberFormat.format(value)}
          </p>
          {note ? <p className="text-xs text-muted">{note}</p> : null}
        </div>
        <Icon className="h-5 w-5 shrink-0 text-primary" aria-hidden />
      </CardContent>
    </Card>
  );
}
