import { PhraseWords } from '@web/components/phrase/phrase-words';
import { Button } from '@web/components/ui/button';
import { copiedToast, copyText } from '@web/lib/clipboard';
import { AlertTriangle, Copy } from 'lucide-react';
import { useId } from 'react';

export function RecoveryPhrase({ phrase }: { phrase: string }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border-2 border-danger bg-danger/5 p-4"
    >
      <h3 id={headingId} className="flex items-center gap-2 font-semibold text-danger">
        <AlertTriangle className="h-5 w-5 shrink-0" aria-hidden />
        Critical: write down your recovery phrase
      </h3>
      <p className="text-sm text-fg">
        These 12 words can reset your password and your two-factor authentication. Write them down
        in order and keep them offline, somewhere only you can reach. Anyone who has them can take
        over your account, and Coffer will never ask you for them.
      </p>
      <PhraseWords phrase={phrase} />
      <p className="text-xs text-muted">
        Before the setup ends you will type three of these words back. Later you can view the phrase
        under Secret Combination, after re-entering your password.
      </p>
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        onClick={() => void copyText(phrase, copiedToast('Recovery phrase copied.'))}
      >
        <Copy className="h-4 w-4" aria-hidden />
        Copy phrase
      </Button>
    </section>
  );
}
