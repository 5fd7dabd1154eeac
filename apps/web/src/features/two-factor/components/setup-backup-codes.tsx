import { Button } from '@web/components/ui/button';
import { copiedToast, copyText } from '@web/lib/clipboard';
import { Copy, Download } from 'lucide-react';
import { useId } from 'react';

function downloadText(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function BackupCodes({ codes }: { codes: string[] }) {
  const headingId = useId();
  const asText = [
    'Coffer two-factor backup codes',
    'Each code can be used once, instead of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="font-semibold text-fg">
        Backup codes
      </h3>
      <p className="text-sm text-muted">
        If you lose your authenticator, each of these codes signs you in once. They are shown until
        this setup is finished, never after: copy or download them and keep them somewhere safe.
      </p>
      <ul className="grid grid-cols-2 gap-2 rounded-lg border border-border bg-surface-2 p-3">
        {codes.map((code) => (
          <li key={code} className="text-center font-mono text-sm tracking-wider text-fg">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copyText(codes.join('\n'), copiedToast('Backup codes copied.'))}
        >
          <Copy className="h-4 w-4" aria-hidden />
          Copy codes
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => downloadText('coffer-backup-codes.txt', asText)}
        >
          <Download className="h-4 w-4" aria-hidden />
          Download as text
        </Button>
      </div>
    </section>
  );
}
