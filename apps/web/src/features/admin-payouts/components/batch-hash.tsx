import { CopyValueButton } from '@web/components/admin/copy-value-button';

/** A batch id short enough to read aloud; the full one is in the file. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** A transaction hash with its copy button. */
export function Hash({ hash }: { hash: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span translate="no" className="truncate font-mono text-xs" title={hash}>
        {hash}
      </span>
      <CopyValueButton value={hash} label="Copy transaction hash" />
    </span>
  );
}
