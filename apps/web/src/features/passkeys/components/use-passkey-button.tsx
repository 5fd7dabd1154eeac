import { Button } from '@web/components/ui/button';
import { isNoPasskeyAnswer, NO_PASSKEY_MSG, passkeyErrorMessage } from '@web/lib/passkeys';
import { KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { usePasskeySignInStatus, useSignInWithPasskey } from '../api/passkey-sign-in';

/**
 * "Use a passkey" on the sign-in verification screen, shown only when the account has one.
 * On success the session in the cache says 2FA passed and the gate shows the page asked for.
 * When the device gave no answer (it holds no passkey of this account, or the prompt was
 * closed), `onNoPasskey` offers the authenticator code right there, with the message; an
 * admin held to passkeys, whose codes are refused, is told to use the device that holds theirs.
 */
export function UsePasskeyButton({ onNoPasskey }: { onNoPasskey?: (message: string) => void }) {
  const status = usePasskeySignInStatus();
  const signIn = useSignInWithPasskey();
  if (!status.data?.available) return null;

  return (
    <Button
      variant="outline"
      className="w-full"
      disabled={signIn.isPending}
      onClick={() =>
        signIn.mutate(undefined, {
          onSuccess: () => {
            toast.success('Welcome back!', { description: 'You have signed in with a passkey.' });
          },
          onError: (err) => {
            // An admin held to passkeys has no code to fall back on: sent to their passkey.
            if (isNoPasskeyAnswer(err) && status.data?.passkeyOnly) {
              toast.error('Verification Failed', { description: NO_PASSKEY_MSG.passkeyOnly });
              return;
            }
            if (onNoPasskey && isNoPasskeyAnswer(err)) {
              onNoPasskey(NO_PASSKEY_MSG.codeInstead);
              return;
            }
            toast.error('Verification Failed', {
              description: passkeyErrorMessage(err, 'Passkey verification failed.'),
            });
          },
        })
      }
    >
      <KeyRound className="h-4 w-4" aria-hidden />
      {signIn.isPending ? 'Waiting for your passkey...' : 'Use a passkey'}
    </Button>
  );
}
