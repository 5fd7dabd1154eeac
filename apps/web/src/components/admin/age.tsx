import { ageText } from '@coffer/shared';

/** How long an item has waited ("3 h", "2 d"), with its exact time on hover. */
export function Age({ since, title }: { since: string; title: string }) {
  return (
    <time dateTime={since} title={title} className="whitespace-nowrap tabular-nums">
      {ageText(since)}
    </time>
  );
}
