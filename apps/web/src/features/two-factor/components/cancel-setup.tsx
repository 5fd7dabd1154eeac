import { Button } from '@web/components/ui/button';
import { errorMessage } from '@web/lib/api-client';
import { type ReactNode, useId, useState } from 'react';
import { toast } from 'sonner';
import { useCancelTwoFactorSetup } from '../api/cancel-two-factor-setup';

/**
 * The setup's footer: "Cancel setup" (asked once more, as it voids what was shown) beside
 * the step's own button.
 */
export function CancelSetup({
  withPhrase,
  onCancelled,
  children,
}: {
  withPhrase: boolean;
  onCancelled: () => void;
  children: ReactNode;
}) {
  const cancel = useCancelTwoFactorSetup();
  const [asking, setAsking] = useState(false);
  const questionId = useId();

  if (!asking) {
    return (
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="ghost" onClick={() => setAsking(true)}>
          Cancel setup
        </Button>
        {children}
      </div>
    );
  }
  return (
    <section
      aria-labelledby={questionId}
      className="flex flex-col gap-3 rounded-lg border border-warning/50 bg-warning/10 p-3"
    >
      <p id={questionId} className="text-sm text-fg">
        Cancel this setup?{' '}
        {withPhrase
          ? 'The key, the backup codes and the recovery phrase shown here stop working.'
          : 'The key and the backup codes shown here stop working.'}{' '}
        If you added the account to an authenticator app, remove it there.
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => setAsking(false)} disabled={cancel.isPending}>
          Keep setting up
        </Button>
        <Button
          variant="danger"
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutate(undefined, {
              onSuccess: onCancelled,
              onError: (err) =>
                toast.error('Could not cancel', {
                  description: errorMessage(err, 'The setup could not be cancelled.'),
                }),
            })
          }
        >
          {cancel.isPending ? 'Cancelling...' : 'Yes, cancel setup'}
        </Button>
      </div>
    </section>
  );
}
