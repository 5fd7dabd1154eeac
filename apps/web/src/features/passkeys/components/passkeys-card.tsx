import {
  formatDateTime,
  PASSKEY_NAME_MAX,
  type TPasskey,
  type TPasskeyRenameRequest,
  ZPasskeyRenameRequest,
} from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, FormField, showServerError, useZodForm } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { passkeyErrorMessage, usePasskeys } from '@web/lib/passkeys';
import { KeyRound } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { useAddPasskey } from '../api/add-passkey';
import { useRemovePasskey } from '../api/remove-passkey';
import { useRenamePasskey } from '../api/rename-passkey';

/**
 * Settings → Passkeys: a passkey is a second factor beside the authenticator app, so the
 * card asks for 2FA to be on before one can be added (the server refuses otherwise too).
 */
export function PasskeysCard({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  const passkeys = usePasskeys(twoFactorEnabled);
  const [renaming, setRenaming] = useState<TPasskey | null>(null);
  const [removing, setRemoving] = useState<TPasskey | null>(null);

  return (
    // `#passkeys` is where the dashboard's checklist sends a customer to add one.
    <Card id="passkeys" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Passkeys</CardTitle>
        <CardDescription>
          Sign in with your device's screen lock or a security key instead of typing a code.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!twoFactorEnabled ? (
          <p className="text-sm text-muted">
            Turn on two-factor authentication first: a passkey is a second factor beside your
            authenticator app.
          </p>
        ) : (
          <>
            {passkeys.isPending ? (
              <div className="flex items-center gap-3 py-2 text-sm text-muted">
                <Spinner label="Loading your passkeys" />
                Loading your passkeys...
              </div>
            ) : passkeys.isError ? (
              <p role="alert" className="text-sm text-danger">
                {errorMessage(passkeys.error, 'Could not load your passkeys.')}
              </p>
            ) : passkeys.data.passkeys.length === 0 ? (
              <p className="text-sm text-muted">No passkey yet.</p>
            ) : (
              <ul className="divide-y divide-border" aria-label="Passkeys">
                {passkeys.data.passkeys.map((p) => (
                  <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                    <div className="flex min-w-0 items-center gap-3">
                      <KeyRound className="h-5 w-5 shrink-0 text-muted" aria-hidden />
                      <div className="min-w-0">
                        <p className="truncate font-medium text-fg">{p.name}</p>
                        <p className="text-xs text-muted">
                          Added {formatDateTime(p.createdAt)} ·{' '}
                          {p.lastUsedAt
                            ? `Last used ${formatDateTime(p.lastUsedAt)}`
                            : 'Never used'}
                        </p>
                      </div>
                    </div>
                    <div className="flex gap-2">
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => setRenaming(p)}
                        aria-label={`Rename ${p.name}`}
                      >
                        Rename
                      </Button>
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => setRemoving(p)}
                        aria-label={`Remove ${p.name}`}
                      >
                        Remove
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <AddPasskeyForm />
          </>
        )}
      </CardContent>
      {renaming ? <RenameDialog passkey={renaming} onClose={() => setRenaming(null)} /> : null}
      {removing ? <RemoveDialog passkey={removing} onClose={() => setRemoving(null)} /> : null}
    </Card>
  );
}

type TNameFields = TPasskeyRenameRequest;

/** The passkey's name, checked as the server checks it; a new name clears the last message. */
function NameField({
  form,
  className,
  inputProps,
  children,
}: {
  form: UseFormReturn<TNameFields>;
  className: string;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  /** Lays the input out with more beside it (the Add button). */
  children?: (input: ReactNode) => ReactNode;
}) {
  return (
    <FormField name="name" label="Passkey name" className={className}>
      {(control) => {
        const input = (
          <Input
            {...control}
            {...inputProps}
            maxLength={PASSKEY_NAME_MAX}
            onChange={(e) => {
              control.onChange(e);
              form.clearErrors('name');
            }}
          />
        );
        return children ? children(input) : input;
      }}
    </FormField>
  );
}

function AddPasskeyForm() {
  const add = useAddPasskey();
  const form = useZodForm<TNameFields>(ZPasskeyRenameRequest, { name: '' });

  function submit(values: TNameFields) {
    if (add.isPending) return;
    const parsed = ZPasskeyRenameRequest.safeParse(values);
    if (!parsed.success) return;
    add.mutate(parsed.data.name, {
      onSuccess: (passkey) => {
        form.reset();
        toast.success('Passkey added', { description: `"${passkey.name}" can now sign you in.` });
      },
      onError: (err) => {
        const message = showServerError(
          form,
          err,
          (e) => passkeyErrorMessage(e, 'Failed to add the passkey.'),
          () => 'name',
        );
        toast.error('Passkey not added', { description: message });
      },
    });
  }

  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-2 border-t border-border pt-4">
      <NameField
        form={form}
        className="flex flex-col gap-2"
        inputProps={{ name: 'passkeyName', placeholder: 'e.g. Work laptop', autoComplete: 'off' }}
      >
        {(input) => (
          <div className="flex flex-col gap-2 sm:flex-row">
            {input}
            <Button type="submit" disabled={add.isPending} className="sm:w-auto">
              {add.isPending ? 'Adding...' : 'Add passkey'}
            </Button>
          </div>
        )}
      </NameField>
    </Form>
  );
}

/**
 * The new name first, then a fresh second factor (step-up), as a removal asks: the names
 * are how the owner tells their passkeys apart in mails and the security log. A refusal of
 * the name brings the name back with its message.
 */
function RenameDialog({ passkey, onClose }: { passkey: TPasskey; onClose: () => void }) {
  const rename = useRenamePasskey();
  const form = useZodForm<TNameFields>(ZPasskeyRenameRequest, { name: passkey.name });
  const [confirming, setConfirming] = useState<string | null>(null);

  function submit(values: TNameFields) {
    const parsed = ZPasskeyRenameRequest.safeParse(values);
    if (!parsed.success) return;
    setConfirming(parsed.data.name);
  }

  if (confirming !== null) {
    return (
      <StepUpDialog
        open
        title={`Rename "${passkey.name}"?`}
        // How it is confirmed the dialog tells (a code, or a passkey alone for some admins).
        description={`It will be named "${confirming}". Confirm it is you.`}
        confirmLabel="Rename passkey"
        pendingLabel="Saving..."
        onCancel={() => setConfirming(null)}
        onConfirm={async (stepUp) => {
          await rename.mutateAsync({ id: passkey.id, name: confirming, stepUp });
          toast.success('Passkey renamed', { description: `It is now named "${confirming}".` });
          onClose();
        }}
        onFailure={(err) => {
          setConfirming(null);
          showServerError(
            form,
            err,
            (e) => errorMessage(e, 'Failed to rename the passkey.'),
            () => 'name',
          );
        }}
      />
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Rename passkey">
        <Form form={form} onSubmit={submit} className="flex flex-col gap-3">
          <NameField form={form} className="flex flex-col gap-3" />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Continue</Button>
          </div>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

/** Removal asks for a fresh second factor (step-up): a code, a backup code or a passkey. */
function RemoveDialog({ passkey, onClose }: { passkey: TPasskey; onClose: () => void }) {
  const remove = useRemovePasskey();
  return (
    <StepUpDialog
      open
      title={`Remove "${passkey.name}"?`}
      description="Confirm it is you with a code from your authenticator app, a backup code or a passkey."
      confirmLabel="Remove passkey"
      pendingLabel="Removing..."
      danger
      onCancel={onClose}
      onConfirm={async (stepUp) => {
        await remove.mutateAsync({ id: passkey.id, stepUp });
        toast.success('Passkey removed', {
          description: `"${passkey.name}" can no longer sign you in.`,
        });
        onClose();
      }}
      onFailure={(err) => {
        toast.error('Error', { description: errorMessage(err, 'Failed to remove the passkey.') });
        onClose();
      }}
    />
  );
}
