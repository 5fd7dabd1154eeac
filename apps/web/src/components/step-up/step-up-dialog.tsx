import {
  BACKUP_CODE_LENGTH,
  cleanBackupCodeInput,
  STAFF_MSG,
  STEP_UP_MSG,
  type TStepUp,
} from '@coffer/shared';
import { WebAuthnError } from '@simplewebauthn/browser';
import { ApiError } from '@web/lib/api-client';
import {
  isNoPasskeyAnswer,
  NO_PASSKEY_MSG,
  passkeyErrorMessage,
  signWithPasskey,
  usePasskeys,
} from '@web/lib/passkeys';
import { KeyRound } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { Button } from '../ui/button';
import { Dialog, DialogContent } from '../ui/dialog';
import { FORM_ERROR, Form, FormError, FormField, showServerError, useZodForm } from '../ui/form';
import { Input } from '../ui/input';

/** A staff role's or the two-person rule's refusal: about the request, never the factor. */
const STAFF_REFUSALS: ReadonlySet<string> = new Set(Object.values(STAFF_MSG));

/**
 * Whether a refusal is about the second factor itself (a wrong or used code, a passkey that
 * did not verify, too many tries): those stay in the dialog, to try again; anything else
 * is about the request, and the form that asked shows it.
 */
function isStepUpRefusal(err: unknown): boolean {
  if (err instanceof WebAuthnError) return true;
  if (err instanceof DOMException && err.name === 'NotAllowedError') return true;
  if (!(err instanceof ApiError)) return false;
  if (err.code === 'INVALID_CODE' || err.code === 'RATE_LIMITED') return true;
  // A policy about which factor may confirm (admins held to passkeys), or none set up; a
  // role that may not do this, or a proposer approving their own change, is the request's.
  if (err.code === 'FORBIDDEN') return !STAFF_REFUSALS.has(err.message);
  return err.code === 'VALIDATION_FAILED' && err.message === STEP_UP_MSG.required;
}

/** A typed code as the server reads it: six digits, or a backup code; null when neither. */
function readCode(typed: string): string | null {
  const trimmed = typed.trim();
  if (/^\d{6}$/.test(trimmed)) return trimmed;
  const backup = cleanBackupCodeInput(trimmed);
  return backup.length === BACKUP_CODE_LENGTH && !/^\d+$/.test(backup) ? backup : null;
}

type TCodeFields = { code: string };

export type StepUpDialogProps = {
  open: boolean;
  title: string;
  /**
   * What is being confirmed, in the customer's words ("0.5 BTC to bc1q…"); text a customer
   * wrote in it is isolated by the caller (CustomerText).
   */
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  danger?: boolean;
  onCancel: () => void;
  /**
   * Sends the request with this fresh second factor. Resolve when it is done (the caller
   * closes the dialog); a refusal of the factor keeps the dialog open with its message,
   * any other error goes to `onFailure`.
   */
  onConfirm: (stepUp: TStepUp) => Promise<void>;
  onFailure: (err: unknown) => void;
};

/**
 * Step-up: a withdrawal, a bank payout, new bank details, a password change or
 * removing a factor is confirmed with a fresh authenticator code, a backup code or a passkey.
 */
export function StepUpDialog(props: StepUpDialogProps) {
  const passkeys = usePasskeys(props.open);
  const form = useZodForm<TCodeFields>(
    null,
    { code: '' },
    { check: ({ code }) => (readCode(code) === null ? { code: STEP_UP_MSG.required } : {}) },
  );
  const [pending, setPending] = useState(false);
  const inputId = useId();
  const hasPasskey = (passkeys.data?.passkeys.length ?? 0) > 0;
  // An admin held to passkeys: the server refuses their codes, so none is asked for.
  const passkeyOnly = passkeys.data?.passkeyOnly ?? false;

  // Every opening starts clean: a code is used once.
  useEffect(() => {
    if (props.open) form.reset();
  }, [props.open, form]);

  async function run(proof: () => Promise<TStepUp>) {
    if (pending) return;
    setPending(true);
    form.clearErrors('code');
    try {
      await props.onConfirm(await proof());
    } catch (err) {
      form.setValue('code', '');
      if (isStepUpRefusal(err)) {
        showServerError(
          form,
          err,
          (e) =>
            passkeyOnly && isNoPasskeyAnswer(e)
              ? NO_PASSKEY_MSG.passkeyOnly
              : passkeyErrorMessage(e, STEP_UP_MSG.invalid, { codeInstead: true }),
          // Without a code field the message stands above the buttons.
          () => (passkeyOnly ? FORM_ERROR : 'code'),
        );
        // Ready for the next code without another click (or for the code instead of a
        // passkey this device does not hold).
        document.getElementById(inputId)?.focus();
      } else props.onFailure(err);
    } finally {
      setPending(false);
    }
  }

  function submit({ code }: TCodeFields) {
    const read = readCode(code);
    if (read === null) return;
    void run(async () => ({ code: read }));
  }

  return (
    <Dialog open={props.open} onOpenChange={(open) => !open && !pending && props.onCancel()}>
      <DialogContent
        title={props.title}
        // What is confirmed often holds a 40-odd-character address with no space in it: on a
        // phone it has to break inside the word, or it runs out of the dialog.
        description={<span className="wrap-anywhere">{props.description}</span>}
      >
        <Form form={form} onSubmit={submit} className="flex flex-col gap-3">
          {passkeyOnly ? (
            <>
              <p className="text-sm text-muted">
                Admins confirm with a passkey on this installation: authenticator codes and backup
                codes are not accepted.
              </p>
              <FormError />
            </>
          ) : (
            <CodeField inputId={inputId} />
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={props.onCancel} disabled={pending}>
              Cancel
            </Button>
            {hasPasskey ? (
              <Button
                variant={passkeyOnly ? (props.danger ? 'danger' : 'primary') : 'outline'}
                onClick={() => void run(async () => ({ assertion: await signWithPasskey() }))}
                disabled={pending}
              >
                <KeyRound className="h-4 w-4" aria-hidden />
                Use a passkey
              </Button>
            ) : null}
            {passkeyOnly ? null : (
              <Button
                type="submit"
                variant={props.danger ? 'danger' : 'primary'}
                disabled={pending}
              >
                {pending ? props.pendingLabel : props.confirmLabel}
              </Button>
            )}
          </div>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

/** The code field: an authenticator code or a backup code, in one input. */
function CodeField({ inputId }: { inputId: string }) {
  const form = useFormContext<TCodeFields>();
  return (
    <FormField
      name="code"
      id={inputId}
      label="Authentication code"
      className="flex flex-col gap-3"
      after={
        <p className="text-xs text-muted">
          The 6-digit code from your authenticator app, or one of your backup codes.
        </p>
      }
    >
      {(control) => (
        <Input
          {...control}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={12}
          placeholder="123456"
          onChange={(e) => {
            control.onChange(e);
            // A new code clears the refusal of the last one.
            form.clearErrors('code');
          }}
          className="text-center font-mono text-lg tracking-[0.3em]"
        />
      )}
    </FormField>
  );
}
