import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { CustomerText } from '@web/components/ui/customer-text';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { useSession } from '@web/lib/session';
import { useCan } from '@web/lib/staff';
import { useState } from 'react';
import { type UnfreezeStep, useUnfreezeState } from '../api/unfreeze-actions';
import { UnfreezeForm } from './unfreeze-form';
import { UnfreezeStepUp } from './unfreeze-step-up';

/**
 * A frozen customer's row: the Frozen badge, whether an unfreeze waits for a second admin,
 * and the review. Lifting a freeze takes two admins, each with a fresh second factor: one
 * asks with a reason, another approves (or either rejects, saying why). Approval does not
 * give the old password back: the customer sets a new one from a mailed link.
 */
export function UnfreezeReview({ user }: { user: { id: string; name: string } }) {
  const session = useSession();
  const state = useUnfreezeState(user.id);
  // Unfreezing is compliance's; the others see the state only.
  const mayProtect = useCan()('customers.protect');
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState<UnfreezeStep | null>(null);
  const pending = state.data?.pending ?? null;
  // Unfrozen, but the owner has not set a new password yet: a new link takes the same review.
  const awaiting = state.data ? !state.data.frozen && state.data.awaitingNewPassword : false;
  const mine = pending !== null && pending.requestedBy.id === session.data?.user.id;

  // The form opens empty each time: it lives in the dialog's content, which closing removes.
  function openReview(isOpen: boolean) {
    setOpen(isOpen);
    if (isOpen) void state.refetch();
  }

  /** The checked step: the review closes and the second factor is asked for. */
  function next(step: UnfreezeStep) {
    setOpen(false);
    setConfirming(step);
  }

  return (
    <>
      {awaiting ? (
        <Badge variant="secondary" className="whitespace-nowrap">
          New password pending
        </Badge>
      ) : (
        <Badge variant="destructive">Frozen</Badge>
      )}
      {pending ? (
        <Badge variant="secondary" className="whitespace-nowrap">
          Unfreeze requested
        </Badge>
      ) : null}
      {mayProtect ? (
        <Button
          size="sm"
          variant="outline"
          onClick={() => openReview(true)}
          aria-label={awaiting ? `Send ${user.name} a new link` : `Unfreeze ${user.name}`}
        >
          {awaiting ? 'New link' : 'Unfreeze'}
        </Button>
      ) : null}

      <Dialog open={open} onOpenChange={openReview}>
        <DialogContent
          title={
            awaiting ? (
              <>
                Send <CustomerText text={user.name} /> a new link?
              </>
            ) : (
              <>
                Unfreeze <CustomerText text={user.name} />?
              </>
            )
          }
          description={
            awaiting
              ? 'The freeze was lifted, but the customer has not set a new password: nobody can sign in until they do. If the link expired or did not arrive, two admins send a new one, as for the unfreeze; the earlier link stops working.'
              : 'The customer froze the account with the link of a security-hold mail. Lifting the freeze takes two admins: one asks, with how the account was reviewed with its owner; another approves. The customer then sets a new password from a link we e-mail them.'
          }
        >
          {state.isPending ? (
            <Spinner />
          ) : state.isError ? (
            <Alert variant="danger" role="alert">
              {errorMessage(state.error, 'The review could not be loaded. Please try again.')}
            </Alert>
          ) : (
            <UnfreezeForm
              pending={pending}
              mine={mine}
              awaiting={awaiting}
              onCancel={() => openReview(false)}
              onNext={next}
            />
          )}
        </DialogContent>
      </Dialog>

      <UnfreezeStepUp user={user} step={confirming} onClose={() => setConfirming(null)} />
    </>
  );
}
