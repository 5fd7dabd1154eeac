import type { TTwoFactorSetupResponse } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { QrCode } from '@web/components/ui/qr-code';
import { copiedToast, copyText } from '@web/lib/clipboard';
import { useSession } from '@web/lib/session';
import { Copy, ExternalLink, KeyRound } from 'lucide-react';
import { useId } from 'react';
import { CancelSetup } from './cancel-setup';
import { BackupCodes } from './setup-backup-codes';
import { RecoveryPhrase } from './setup-recovery-phrase';

/** Groups of four are easier to type into an authenticator app by hand. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

export function SetupStep({
  setup,
  onContinue,
  onCancelled,
}: {
  setup: TTwoFactorSetupResponse;
  onContinue: () => void;
  onCancelled: () => void;
}) {
  const headingId = useId();
  const isAdmin = useSession().data?.user.isAdmin ?? false;
  return (
    <div className="flex flex-col gap-6">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">Step 1 of 2</p>

      <section aria-labelledby={headingId} className="flex flex-col gap-3">
        <h3 id={headingId} className="font-semibold text-fg">
          Scan the QR code
        </h3>
        <p className="text-sm text-muted">
          Open an authenticator app on your phone and scan this code. It adds your Coffer account
          and shows a new 6-digit code every 30 seconds.
        </p>
        <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
          <QrCode
            value={setup.otpauthUrl}
            label="QR code to add your Coffer account to an authenticator app"
            failedText="The QR code could not be drawn. Enter the key by hand instead."
          />
          <div className="flex w-full min-w-0 flex-col gap-2">
            {/* A phone cannot scan its own screen: there the same URI opens the app directly. */}
            <div className="mb-2 hidden rounded-lg border border-border bg-surface-2 p-3 pointer-coarse:block max-sm:block">
              <p className="mb-2 text-sm text-fg">
                Setting up on this phone? Add the account to your authenticator app in one tap:
              </p>
              <Button asChild size="sm">
                <a href={setup.otpauthUrl}>
                  <ExternalLink className="h-4 w-4" aria-hidden />
                  Open in authenticator app
                </a>
              </Button>
            </div>
            <p className="text-sm text-fg">Can't scan it? Enter this key in the app instead:</p>
            <code className="break-all rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-sm text-fg">
              {groupSecret(setup.secret)}
            </code>
            <Button
              variant="outline"
              size="sm"
              className="self-start"
              onClick={() => void copyText(setup.secret, copiedToast('Secret key copied.'))}
            >
              <Copy className="h-4 w-4" aria-hidden />
              Copy key
            </Button>
          </div>
        </div>
      </section>

      {setup.seedPhrase ? (
        <RecoveryPhrase phrase={setup.seedPhrase} />
      ) : (
        <p className="flex gap-2 rounded-lg border border-border bg-surface-2 p-3 text-sm text-fg">
          <KeyRound className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden />
          <span>
            {isAdmin
              ? 'Staff accounts have no recovery phrase. If you lose your authenticator and your backup codes, another admin restores your access.'
              : 'You already have a recovery phrase, so none is shown here. You can view it under Secret Combination after re-entering your password.'}
          </span>
        </p>
      )}

      <BackupCodes codes={setup.backupCodes} />

      <CancelSetup withPhrase={setup.seedPhrase !== null} onCancelled={onCancelled}>
        <Button className="w-full sm:w-auto" onClick={onContinue}>
          Continue
        </Button>
      </CancelSetup>
    </div>
  );
}
