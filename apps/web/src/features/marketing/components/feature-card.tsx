import { Card } from '@web/components/ui/card';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A marketing feature: icon, title (an h3 under the section's h2) and a short, true description. */
export function FeatureCard({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card className="flex h-full flex-col gap-3 p-6">
      <span className="inline-flex h-11 w-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <Icon className="h-5 w-5" aria-hidden />
      </span>
      <h3 className="text-lg font-semibold text-fg">{title}</h3>
      <p className="text-sm leading-relaxed text-muted">{children}</p>
    </Card>
  );
}
