import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import type { ReactNode } from 'react';

/** One of the picked customer's tables, under its title. */
export function TableCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
