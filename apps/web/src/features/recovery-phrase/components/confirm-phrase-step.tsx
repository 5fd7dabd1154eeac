import { countWords, MSG, normalizePhrase, RECOVERY_PHRASE_WORDS } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { FieldError } from '@web/components/ui/field-error';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { ApiError } from '@web/lib/api-client';
import { ClipboardCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useConfirmPhrase } from '../api/confirm-phrase';

/** What to tell the customer when the server refused or could not be reached. */
function messageOf(err: unknown): string {
  // The server's own words for a wrong phrase, a spent limit (with when to retry) or no phrase.
  if (err instanceof ApiError && err.code !== 'NETWORK' && err.status < 500) return err.message;
  return 'Your phrase could not be checked just now. Please try again.';
}

/**
 * The customer types the whole phrase back from what they wrote down, with the phrase out
 * of sight: only a phrase they really kept proves the copy works (product.md S10).
 */
export function ConfirmPhraseStep({
  onBack,
  onConfirmed,
}: {
  onBack: () => void;
  onConfirmed: (confirmedAt: string) => void;
}) {
  const [phrase, setPhrase] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirmPhrase();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const words = countWords(phrase);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirm.isPending) return;
    if (words !== RECOVERY_PHRASE_WORDS) {
      setError(MSG.phraseTwelveWords);
      return;
    }
    setError(null);
    confirm.mutate(normalizePhrase(phrase), {
      onSuccess: ({ confirmedAt }) => {
        setPhrase('');
        onConfirmed(confirmedAt);
      },
      onError: (err) => setError(messageOf(err)),
    });
  }

  return (
    <Card>
      <CardHeader>
        <span
          className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-surface-2 text-primary"
          aria-hidden
        >
          <ClipboardCheck className="h-6 w-6" />
        </span>
        <h1 className="text-2xl font-bold text-fg">Confirm your seed phrase</h1>
        <CardDescription>
          Type all 12 words from what you wrote down, in order. This proves your copy is complete
          and correct before you rely on it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor={fieldId}>Your 12-word seed phrase</Label>
            {/* translate="no": browser translation would send the words to a third party. */}
            <Textarea
              id={fieldId}
              name="confirmPhrase"
              rows={3}
              translate="no"
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              placeholder="word1 word2 word3 ... word12"
              value={phrase}
              onChange={(e) => {
                setPhrase(e.target.value);
                if (error) setError(null);
              }}
              readOnly={confirm.isPending}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${hintId} ${errorId}` : hintId}
              className="font-mono"
            />
            <p id={hintId} className="flex justify-between gap-2 text-xs text-muted">
              <span>Separate the words with spaces.</span>
              <span aria-live="polite">
                {words} / {RECOVERY_PHRASE_WORDS} words
              </span>
            </p>
            <FieldError id={errorId} message={error} />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onBack} disabled={confirm.isPending}>
              Show the phrase again
            </Button>
            <Button type="submit" disabled={confirm.isPending}>
              {confirm.isPending ? 'Checking...' : 'Confirm phrase'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
