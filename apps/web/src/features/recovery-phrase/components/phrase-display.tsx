import { PhraseWords } from '@web/components/phrase/phrase-words';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { copiedToast, copyText } from '@web/lib/clipboard';
import { CircleCheck, Copy, ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';

const WARNINGS = [
  'Never share your seed phrase with anyone, and never type it into another website or app.',
  'Store it offline: write it down on paper and keep it somewhere safe. No screenshots, e-mails or cloud notes.',
  'Anyone who has this phrase can recover your whole wallet and take over your account.',
  'Coffer will never ask you for your seed phrase, not by e-mail, chat or phone.',
] as const;

/**
 * The user's twelve words, numbered, with the rules for keeping them safe. `onWrittenDown`
 * is given while the phrase waits to be confirmed (a replacement for a burnt one): the way
 * on is then to type it back, not the dashboard.
 */
export function PhraseDisplay({
  phrase,
  onWrittenDown,
}: {
  phrase: string;
  onWrittenDown?: () => void;
}) {
  return (
    <Card>
      <CardHeader>
        <h1 className="text-2xl font-bold text-fg">Secret Combination</h1>
      </CardHeader>
      <CardContent className="space-y-6">
        <div
          role="status"
          className="flex items-start gap-3 rounded-lg border border-success/40 bg-success/10 p-4"
        >
          <CircleCheck className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden />
          <div>
            <p className="font-semibold text-fg">Seed Phrase Generated</p>
            <p className="mt-1 text-sm text-fg">
              Write these 12 words down in order and keep them somewhere safe.
              {onWrittenDown
                ? ' Next you will type them back to confirm your copy: until then, your account stays under its security hold.'
                : ''}
            </p>
          </div>
        </div>

        <PhraseWords phrase={phrase} label="Your 12-word seed phrase" />

        <Button variant="outline" onClick={() => void copyText(phrase, copiedToast())}>
          <Copy className="h-4 w-4" aria-hidden />
          Copy to Clipboard
        </Button>

        <section
          aria-labelledby="phrase-warning-title"
          className="rounded-lg border border-danger/40 bg-danger/10 p-4"
        >
          <h2
            id="phrase-warning-title"
            className="flex items-center gap-2 font-semibold text-danger"
          >
            <ShieldAlert className="h-5 w-5 shrink-0" aria-hidden />
            Keep your seed phrase safe
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-fg">
            {WARNINGS.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </section>

        {onWrittenDown ? (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button onClick={onWrittenDown}>I have written it down</Button>
          </div>
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button asChild>
              <Link to="/dashboard">Continue to Dashboard</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/dashboard">Back to Dashboard</Link>
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
