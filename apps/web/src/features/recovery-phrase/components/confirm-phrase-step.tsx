import {
  countWords,
  normalizePhrase,
  RECOVERY_PHRASE_WORDS,
  type TConfirmPhraseRequest,
  ZConfirmPhraseRequest,
} from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { Form, FormField, showServerError, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { ApiError } from '@web/lib/api-client';
import { ClipboardCheck } from 'lucide-react';
import { useId } from 'react';
import { useConfirmPhrase } from '../api/confirm-phrase';

type TFields = TConfirmPhraseRequest;

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
  const form = useZodForm<TFields>(ZConfirmPhraseRequest, { phrase: '' });
  const confirm = useConfirmPhrase();
  const hintId = useId();
  const words = countWords(form.watch('phrase'));

  function onSubmit(values: TFields) {
    if (confirm.isPending) return;
    confirm.mutate(normalizePhrase(values.phrase), {
      onSuccess: ({ confirmedAt }) => {
        form.reset();
        onConfirmed(confirmedAt);
      },
      onError: (err) => showServerError(form, err, messageOf, () => 'phrase'),
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
        <Form form={form} onSubmit={onSubmit} className="space-y-4">
          <FormField
            name="phrase"
            label="Your 12-word seed phrase"
            className="space-y-2"
            describedBy={[hintId]}
            after={
              <p id={hintId} className="flex justify-between gap-2 text-xs text-muted">
                <span>Separate the words with spaces.</span>
                <span aria-live="polite">
                  {words} / {RECOVERY_PHRASE_WORDS} words
                </span>
              </p>
            }
          >
            {(control) => (
              // translate="no": browser translation would send the words to a third party.
              <Textarea
                {...control}
                name="confirmPhrase"
                rows={3}
                translate="no"
                autoComplete="off"
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                placeholder="word1 word2 word3 ... word12"
                onChange={(e) => {
                  control.onChange(e);
                  form.clearErrors('phrase');
                }}
                readOnly={confirm.isPending}
                className="font-mono"
              />
            )}
          </FormField>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onBack} disabled={confirm.isPending}>
              Show the phrase again
            </Button>
            <Button type="submit" disabled={confirm.isPending}>
              {confirm.isPending ? 'Checking...' : 'Confirm phrase'}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
