import type { TAuditFilters } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { SelectField } from '@web/components/ui/select';
import { X } from 'lucide-react';
import { useAuditFacets } from '../api/get-audit-facets';

export const NO_AUDIT_FILTERS: TAuditFilters = {
  q: '',
  actor: '',
  action: '',
  targetUser: '',
  from: '',
  to: '',
};

/** Whether any filter is set. */
export function anyAuditFilter(filters: TAuditFilters): boolean {
  return Object.values(filters).some((v) => v !== '');
}

/**
 * The search and filters over the log. Each applies as it changes (the two text boxes once
 * typing pauses), so there is nothing to submit.
 */
export function AuditFilters({
  filters,
  onChange,
  onClear,
}: {
  filters: TAuditFilters;
  onChange: <K extends keyof TAuditFilters>(key: K, value: TAuditFilters[K]) => void;
  onClear: () => void;
}) {
  const facets = useAuditFacets();
  const filtered = anyAuditFilter(filters);
  return (
    <Card>
      <CardContent className="pt-5">
        <form
          aria-label="Filter the audit log"
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
          onSubmit={(e) => e.preventDefault()}
        >
          <div className="space-y-1 sm:col-span-2 lg:col-span-3">
            <Label htmlFor="audit-q">Search</Label>
            <Input
              id="audit-q"
              type="search"
              placeholder="Action, target, reason, IP or e-mail"
              value={filters.q}
              onChange={(e) => onChange('q', e.target.value)}
            />
          </div>
          <SelectField
            id="audit-actor"
            label="Actor"
            value={filters.actor}
            onChange={(value) => onChange('actor', value)}
            options={[
              ['', 'All admins'],
              ...(facets.data?.actors ?? []).map((a) => [a.id, a.email ?? a.id] as const),
            ]}
          />
          <SelectField
            id="audit-action"
            label="Action"
            value={filters.action}
            onChange={(value) => onChange('action', value)}
            options={[
              ['', 'All actions'],
              ...(facets.data?.actions ?? []).map((a) => [a, a] as const),
            ]}
          />
          <div className="space-y-1">
            <Label htmlFor="audit-target">Target user</Label>
            <Input
              id="audit-target"
              placeholder="E-mail or user id"
              value={filters.targetUser}
              onChange={(e) => onChange('targetUser', e.target.value)}
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor="audit-from">From (UTC)</Label>
            <Input
              id="audit-from"
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => onChange('from', e.target.value)}
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor="audit-to">To (UTC)</Label>
            <Input
              id="audit-to"
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(e) => onChange('to', e.target.value)}
            />
          </div>
          <div className="flex items-end">
            <Button type="button" variant="ghost" onClick={onClear} disabled={!filtered}>
              <X className="h-4 w-4" aria-hidden />
              Clear filters
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
