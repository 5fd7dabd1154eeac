import { formatDateTime } from '@coffer/shared';
import { formatDistanceToNow } from 'date-fns';

/** "5 minutes ago": relative time with a suffix, the full date and time on hover. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className={className}>
      {formatDistanceToNow(new Date(iso), { addSuffix: true })}
    </time>
  );
}
