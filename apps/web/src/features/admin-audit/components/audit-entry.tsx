import { formatDateTime, type TAuditEntry } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { CustomerText } from '@web/components/ui/customer-text';
import { EmailText } from '@web/components/ui/email-text';
import { AuditChanges } from './audit-changes';

/** One admin action: what, when, by whom and from where, its target, reason and changes. */
export function AuditEntry({ entry }: { entry: TAuditEntry }) {
  return (
    <li className="grid gap-3 p-4 lg:grid-cols-[14rem_1fr]">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary" className="font-mono">
            {entry.action}
          </Badge>
          <span className="text-xs text-muted">#{entry.id}</span>
        </p>
        <p className="text-fg">
          <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
        </p>
        <p className="truncate text-muted" title={entry.actorEmail ?? undefined}>
          By{' '}
          <span className="text-fg">
            {entry.actorEmail ?? (entry.actorId ? entry.actorId : 'System')}
          </span>
        </p>
        <p className="text-xs text-muted">IP {entry.ip ?? '—'}</p>
      </div>
      <div className="min-w-0 space-y-2">
        <p className="break-words text-sm text-muted">
          Target <span className="text-fg">{entry.targetType}</span>{' '}
          <CustomerText text={entry.targetId} className="font-mono text-fg" />
          {entry.targetUserId ? (
            <>
              {' '}
              · customer{' '}
              {entry.targetUserEmail ? (
                <EmailText email={entry.targetUserEmail} className="text-fg" />
              ) : (
                <span className="text-fg">{entry.targetUserId}</span>
              )}
            </>
          ) : null}
        </p>
        {entry.reason ? (
          <p className="break-words text-sm">
            <span className="text-muted">Reason: </span>
            <CustomerText text={entry.reason} className="text-fg" multiline />
          </p>
        ) : null}
        <AuditChanges before={entry.before} after={entry.after} />
      </div>
    </li>
  );
}
