import { MSG, TOTP_DIGITS } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, showServerError, useZodForm } from '@web/components/ui/form';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import { TotpCodeField } from './totp-code-input';
import { TwoFactorSetupFlow } from './two-factor-setup-flow';

/** Settings → Security: the 2FA status, read from the server on load, with enable and disable. */
export function TwoFactorSettingsCard() {
  const status = useTwoFactorStatus();
  const [dialog, setDialog] = useState<'enable' | 'disable' | null>(null);
  const closeDialog = (open: boolean) => {
    if (!open) setDialog(null);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Security</CardTitle>
        <CardDescription>
          Two-factor authentication asks for a code from your authenticator app each time you sign
          in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {status.isPending ? (
          <div className="flex items-center gap-3 py-2 text-sm text-muted">
            <Spinner label="Checking two-factor authentication" />
            Checking two-factor authentication...
          </div>
        ) : status.isError ? (
          <div className="flex flex-wrap items-center justify-between gap-3 py-2">
            <p role="alert" className="text-sm text-danger">
              {errorMessage(status.error, 'Could not check two-factor authentication.')}
            </p>
            <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex items-start gap-3">
              {status.data.enabled ? (
                <ShieldCheck className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden />
              ) : (
                <ShieldOff className="mt-0.5 h-5 w-5 shrink-0 text-muted" aria-hidden />
              )}
              <div className="flex flex-col gap-1">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-fg">
                  Two-factor authentication
                  <Badge variant={status.data.enabled ? 'success' : 'secondary'}>
                    {status.data.enabled ? 'Enabled' : 'Disabled'}
                  </Badge>
                </p>
                <p className="text-sm text-muted">
                  {status.data.enabled
                    ? backupCodesText(status.data.backupCodesLeft)
                    : 'Your account is protected by your password only.'}
                </p>
              </div>
            </div>
            {status.data.enabled ? (
              <Button
                variant="outline"
                className="w-full sm:w-auto"
                onClick={() => setDialog('disable')}
              >
                Disable
              </Button>
            ) : (
              <Button className="w-full sm:w-auto" onClick={() => setDialog('enable')}>
                Enable
              </Button>
            )}
          </div>
        )}
      </CardContent>

      <Dialog open={dialog === 'enable'} onOpenChange={closeDialog}>
        <DialogContent
          title="Enable two-factor authentication"
          description="Scan the code with an authenticator app, save your backup codes, then confirm with a code. Closing this keeps the setup: it opens again where you left it."
        >
          <TwoFactorSetupFlow
            onDone={() => {
              setDialog(null);
              toast.success('2FA Enabled', {
                description: 'Two-factor authentication is now active on your account.',
              });
            }}
            onCancelled={() => {
              setDialog(null);
              toast('Setup cancelled', {
                description: 'The key and backup codes shown no longer work.',
              });
            }}
          />
        </DialogContent>
      </Dialog>

      <Dialog open={dialog === 'disable'} onOpenChange={closeDialog}>
        <DialogContent
          title="Disable two-factor authentication"
          description="Enter a current 6-digit code from your authenticator app to confirm."
        >
          <DisableForm
            required={status.data?.required ?? true}
            onCancel={() => setDialog(null)}
            onDisabled={() => setDialog(null)}
          />
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function backupCodesText(left: number): string {
  if (left === 0) return 'No backup codes left.';
  return `${left} backup code${left === 1 ? '' : 's'} left.`;
}

function DisableForm({
  required,
  onCancel,
  onDisabled,
}: {
  required: boolean;
  onCancel: () => void;
  onDisabled: () => void;
}) {
  const disable = useDisableTwoFactor();
  const form = useZodForm<{ code: string }>(
    null,
    { code: '' },
    { check: ({ code }) => (code.length !== TOTP_DIGITS ? { code: MSG.sixDigitCode } : {}) },
  );
  const noticeId = useId();

  function submit({ code }: { code: string }) {
    if (disable.isPending) return;
    disable.mutate(
      { code },
      {
        onSuccess: () => {
          toast.success('2FA Disabled', {
            description: 'Two-factor authentication has been disabled.',
          });
          onDisabled();
        },
        onError: (err) => {
          console.error('2FA disable failed', err);
          form.setValue('code', '');
          const message = showServerError(
            form,
            err,
            (e) => errorMessage(e, 'Failed to disable 2FA'),
            () => 'code',
          );
          toast.error('Error', { description: message });
        },
      },
    );
  }

  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <p
        id={noticeId}
        className="rounded-lg border border-warning/50 bg-warning/10 p-3 text-sm text-fg"
      >
        {required
          ? 'Two-factor authentication is required for every Coffer account. Once you disable it, you will be asked to set it up again right away, with a new secret key and new backup codes.'
          : 'Without two-factor authentication, anyone who learns your password can sign in to your account. Your remaining backup codes stop working.'}
      </p>
      <TotpCodeField label="Authentication code" describedBy={[noticeId]} className="max-w-48" />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={disable.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={disable.isPending}>
          {disable.isPending ? 'Disabling...' : 'Disable 2FA'}
        </Button>
      </div>
    </Form>
  );
}
