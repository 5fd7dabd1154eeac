import {
  MSG,
  PHRASE_CHECK_MSG,
  TOTP_DIGITS,
  type TSession,
  type TTwoFactorSetupResponse,
} from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { FieldError } from '@web/components/ui/field-error';
import { Form, showServerError, type TFormErrors, useZodForm } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { ApiError } from '@web/lib/api-client';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useId } from 'react';
import { toast } from 'sonner';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { TotpCodeField } from './totp-code-input';

/** Which message a failed confirmation shows: the server's where it says more than "wrong". */
function enableFailureMessage(err: unknown): string {
  if (err instanceof ApiError && ['RATE_LIMITED', 'CONFLICT', 'NETWORK'].includes(err.code)) {
    return err.message;
  }
  return MSG.invalidCode;
}

/** A refusal about the phrase's words (wrong or missing): shown under the words, not the code. */
function isWordsRefusal(err: unknown): err is ApiError {
  return (
    err instanceof ApiError && ['INVALID_RECOVERY_PHRASE', 'VALIDATION_FAILED'].includes(err.code)
  );
}

type TFields = { words: string[]; code: string };

/** Every word of the check typed, and a code of six digits; both are told at once. */
function confirmProblems(positions: number[], { words, code }: TFields): TFormErrors<TFields> {
  const found: TFormErrors<TFields> = {};
  const blank = positions.filter((_, i) => !words[i]?.trim());
  if (blank.length > 0) found.words = PHRASE_CHECK_MSG.missing(blank);
  if (code.length !== TOTP_DIGITS) found.code = MSG.sixDigitCode;
  return found;
}

export function ConfirmStep({
  setup,
  onBack,
  onDone,
}: {
  setup: TTwoFactorSetupResponse;
  onBack: () => void;
  onDone: (session: TSession | null) => void;
}) {
  const enable = useEnableTwoFactor();
  const positions = setup.phraseCheck ?? [];
  const form = useZodForm<TFields>(
    null,
    { words: positions.map(() => ''), code: '' },
    { check: (values) => confirmProblems(positions, values) },
  );
  const words = form.watch('words');
  const wordsError = form.formState.errors.words?.message;
  const inputId = useId();
  const wordsId = useId();
  const wordsErrorId = useId();
  const focusInput = () => document.getElementById(inputId)?.focus();
  const focusWord = (i: number) => document.getElementById(`${wordsId}-${i}`)?.focus();

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus once, when the step opens
  useEffect(() => {
    if (positions.length > 0) focusWord(0);
    else focusInput();
  }, []);

  /** A missing word takes the cursor to the first one; a bad code alone is only told. */
  function refused(errors: TFormErrors<TFields>) {
    if (!errors.words) return;
    const typed = form.getValues('words');
    const blank = positions.filter((_, i) => !typed[i]?.trim());
    focusWord(positions.indexOf(blank[0] ?? 0));
  }

  function submit(values: TFields) {
    if (enable.isPending) return;
    enable.mutate(
      {
        code: values.code,
        ...(positions.length > 0 ? { phraseWords: values.words.map((w) => w.trim()) } : {}),
      },
      {
        onSuccess: ({ session }) => onDone(session),
        onError: (err) => {
          console.error('2FA enable failed', err);
          if (isWordsRefusal(err)) {
            // The code was not looked at: it stays, for the corrected words.
            form.setError('words', { type: 'server', message: err.message });
            toast.error('Verification Failed', { description: err.message });
            focusWord(0);
            return;
          }
          form.setValue('code', '');
          const message = showServerError(form, err, enableFailureMessage, () => 'code');
          toast.error('Verification Failed', { description: message });
          focusInput();
        },
      },
    );
  }

  return (
    <Form form={form} onSubmit={submit} onInvalid={refused} className="flex flex-col gap-5">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">Step 2 of 2</p>
      {positions.length > 0 && (
        <fieldset
          className="flex flex-col gap-3"
          aria-describedby={wordsError ? wordsErrorId : undefined}
        >
          <legend className="mb-1 font-semibold text-fg">Check your recovery phrase</legend>
          <p className="text-sm text-muted">
            From what you wrote down, type these words of your recovery phrase. This makes sure your
            copy is right before you rely on it.
          </p>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            {positions.map((position, i) => (
              <div key={position} className="flex flex-col gap-1.5">
                <Label htmlFor={`${wordsId}-${i}`}>Word {position}</Label>
                {/* translate="no": browser translation would send the words to a third party. */}
                <Input
                  id={`${wordsId}-${i}`}
                  value={words[i] ?? ''}
                  onChange={(e) => {
                    const next = [...words];
                    next[i] = e.target.value;
                    form.setValue('words', next);
                    form.clearErrors('words');
                  }}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  translate="no"
                  maxLength={50}
                  className="font-mono"
                  aria-invalid={wordsError ? true : undefined}
                />
              </div>
            ))}
          </div>
          <FieldError id={wordsErrorId} message={wordsError} />
        </fieldset>
      )}
      <TotpCodeField
        id={inputId}
        label="Enter the 6-digit code from your authenticator app"
        className="max-w-48"
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="outline" onClick={onBack} disabled={enable.isPending}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back
        </Button>
        <Button type="submit" disabled={enable.isPending}>
          {enable.isPending ? 'Verifying...' : 'Verify and Enable'}
        </Button>
      </div>
    </Form>
  );
}
