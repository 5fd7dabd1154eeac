import { formatDistanceToNow } from 'date-fns';

/** "5 minutes ago": relative time with a suffix. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()} className={className}>
      {formatDistanceToNow(new Date(iso), { addSuffix: true })}
    </time>
  );
}
