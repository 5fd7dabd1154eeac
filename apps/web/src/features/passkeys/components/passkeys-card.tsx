import { PASSKEY_NAME_MAX, type TPasskey, ZPasskeyName } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { FieldError } from '@web/components/ui/field-error';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { passkeyErrorMessage, usePasskeys } from '@web/lib/passkeys';
import { format } from 'date-fns';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { useAddPasskey } from '../api/add-passkey';
import { useRemovePasskey } from '../api/remove-passkey';
import { useRenamePasskey } from '../api/rename-passkey';

const when = (iso: string) => format(new Date(iso), 'd MMM yyyy, HH:mm');

/**
 * Settings → Passkeys: a passkey is a second factor beside the authenticator app, so the
 * card asks for 2FA to be on before one can be added (the server refuses otherwise too).
 */
export function PasskeysCard({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  const passkeys = usePasskeys(twoFactorEnabled);
  const [renaming, setRenaming] = useState<TPasskey | null>(null);
  const [removing, setRemoving] = useState<TPasskey | null>(null);

  return (
    <Card>
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
                          Added {when(p.createdAt)} ·{' '}
                          {p.lastUsedAt ? `Last used ${when(p.lastUsedAt)}` : 'Never used'}
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

function AddPasskeyForm() {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (add.isPending) return;
    const parsed = ZPasskeyName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Give the passkey a name.');
      return;
    }
    setError(null);
    add.mutate(parsed.data, {
      onSuccess: (passkey) => {
        setName('');
        toast.success('Passkey added', { description: `"${passkey.name}" can now sign you in.` });
      },
      onError: (err) => {
        const message = passkeyErrorMessage(err, 'Failed to add the passkey.');
        setError(message);
        toast.error('Passkey not added', { description: message });
      },
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-2 border-t border-border pt-4">
      <Label htmlFor={inputId}>Passkey name</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={inputId}
          name="passkeyName"
          placeholder="e.g. Work laptop"
          maxLength={PASSKEY_NAME_MAX}
          autoComplete="off"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <Button type="submit" disabled={add.isPending} className="sm:w-auto">
          {add.isPending ? 'Adding...' : 'Add passkey'}
        </Button>
      </div>
      <FieldError id={errorId} message={error} />
    </form>
  );
}

function RenameDialog({ passkey, onClose }: { passkey: TPasskey; onClose: () => void }) {
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const parsed = ZPasskeyName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Give the passkey a name.');
      return;
    }
    rename.mutate(
      { id: passkey.id, name: parsed.data },
      {
        onSuccess: () => {
          toast.success('Passkey renamed');
          onClose();
        },
        onError: (err) => setError(errorMessage(err, 'Failed to rename the passkey.')),
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Rename passkey">
        <form noValidate onSubmit={submit} className="flex flex-col gap-3">
          <Label htmlFor={inputId}>Passkey name</Label>
          <Input
            id={inputId}
            maxLength={PASSKEY_NAME_MAX}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (error) setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          <FieldError id={errorId} message={error} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={rename.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={rename.isPending}>
              {rename.isPending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </form>
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
