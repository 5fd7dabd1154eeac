import { formatDateTime, SECURITY_EVENT_KINDS, type TSecurityEvent } from '@coffer/shared';
import { cn } from '@web/lib/cn';
import { ShieldAlert, ShieldCheck } from 'lucide-react';

function isFailure(kind: string): boolean {
  return Object.entries(SECURITY_EVENT_KINDS).some(([k, v]) => k === kind && v.failure);
}

/**
 * A security activity log, newest first: what happened, when, from which device and address.
 * Shared by the customer's Settings card and the admin users screen, which show the same list.
 */
export function SecurityActivityList({
  events,
  label,
}: {
  events: TSecurityEvent[];
  label: string;
}) {
  return (
    <ul className="divide-y divide-border" aria-label={label}>
      {events.map((e) => {
        const failure = isFailure(e.kind);
        const Icon = failure ? ShieldAlert : ShieldCheck;
        return (
          <li key={e.id} className="flex min-w-0 items-start gap-3 py-3 first:pt-0 last:pb-0">
            <Icon
              className={cn('mt-0.5 h-5 w-5 shrink-0', failure ? 'text-danger' : 'text-muted')}
              aria-hidden
            />
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <p className="flex flex-col gap-0.5 sm:flex-row sm:items-baseline sm:justify-between sm:gap-3">
                <span className={cn('text-sm font-medium', failure ? 'text-danger' : 'text-fg')}>
                  {e.label}
                </span>
                <time dateTime={e.at} className="text-xs text-muted tabular-nums">
                  {formatDateTime(e.at)}
                </time>
              </p>
              {e.detail ? <p className="break-words text-sm text-fg">{e.detail}</p> : null}
              {e.device || e.ip ? (
                <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs text-muted">
                  {e.device ? (
                    <>
                      <dt>Device</dt>
                      <dd className="break-words">{e.device}</dd>
                    </>
                  ) : null}
                  {e.ip ? (
                    <>
                      <dt>Address</dt>
                      <dd className="break-all font-mono">{e.ip}</dd>
                    </>
                  ) : null}
                </dl>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
