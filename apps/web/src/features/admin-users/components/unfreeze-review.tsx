import { UNFREEZE_REASON_MISSING, UNFREEZE_REJECT_REASON_MISSING } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { useSession } from '@web/lib/session';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { type UnfreezeStep, useUnfreezeState, useUnfreezeStep } from '../api/unfreeze-actions';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const CONFIRM: Record<
  UnfreezeStep['kind'],
  { title: string; label: string; pending: string; done: string }
> = {
  request: {
    title: 'Confirm the unfreeze request',
    label: 'Request unfreeze',
    pending: 'Requesting...',
    done: 'Unfreeze requested: another admin must approve it.',
  },
  approve: {
    title: 'Confirm the unfreeze',
    label: 'Approve unfreeze',
    pending: 'Approving...',
    done: 'Account unfrozen. The customer was e-mailed a link to set a new password.',
  },
  reject: {
    title: 'Confirm the rejection',
    label: 'Reject request',
    pending: 'Rejecting...',
    done: 'Request rejected: the account stays frozen.',
  },
};

/**
 * A frozen customer's row: the Frozen badge, whether an unfreeze waits for a second admin,
 * and the review. Lifting a freeze takes two admins, each with a fresh second factor: one
 * asks with a reason, another approves (or either rejects, saying why). Approval does not
 * give the old password back: the customer sets a new one from a mailed link.
 */
export function UnfreezeReview({ user }: { user: { id: string; name: string } }) {
  const session = useSession();
  const state = useUnfreezeState(user.id);
  const act = useUnfreezeStep(user.id);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<UnfreezeStep | null>(null);
  const reasonId = useId();
  const errorId = useId();
  const pending = state.data?.pending ?? null;
  // Unfrozen, but the owner has not set a new password yet: a new link takes the same review.
  const awaiting = state.data ? !state.data.frozen && state.data.awaitingNewPassword : false;
  const mine = pending !== null && pending.requestedBy.id === session.data?.user.id;

  function openReview(isOpen: boolean) {
    setOpen(isOpen);
    if (isOpen) {
      setReason('');
      setError(null);
      void state.refetch();
    }
  }

  /** Checks the reason a step needs, then asks for the second factor. */
  function next(e: FormEvent | null, step: UnfreezeStep['kind']) {
    e?.preventDefault();
    const trimmed = reason.trim();
    if (step !== 'approve' && trimmed === '') {
      setError(step === 'request' ? UNFREEZE_REASON_MISSING : UNFREEZE_REJECT_REASON_MISSING);
      return;
    }
    setOpen(false);
    setConfirming(step === 'approve' ? { kind: step } : { kind: step, reason: trimmed });
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
      <Button
        size="sm"
        variant="outline"
        onClick={() => openReview(true)}
        aria-label={awaiting ? `Send ${user.name} a new link` : `Unfreeze ${user.name}`}
      >
        {awaiting ? 'New link' : 'Unfreeze'}
      </Button>

      <Dialog open={open} onOpenChange={openReview}>
        <DialogContent
          title={awaiting ? `Send ${user.name} a new link?` : `Unfreeze ${user.name}?`}
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
            <form
              noValidate
              className="space-y-4"
              onSubmit={(e) => next(e, pending ? (mine ? 'reject' : 'approve') : 'request')}
            >
              {pending ? (
                <Alert variant="warning" title="Unfreeze requested">
                  <p>
                    By {mine ? 'you' : (pending.requestedBy.email ?? 'a former admin')} on{' '}
                    {when.format(new Date(pending.requestedAt))}.
                  </p>
                  <p className="mt-1 whitespace-pre-wrap break-words">Reason: {pending.reason}</p>
                  {mine ? <p className="mt-1">Another admin must approve it (four eyes).</p> : null}
                </Alert>
              ) : null}
              <div className="space-y-1.5">
                <Label htmlFor={reasonId}>
                  {pending ? 'Reason to reject (only to reject)' : 'How was the account reviewed?'}
                </Label>
                <Textarea
                  id={reasonId}
                  rows={3}
                  maxLength={500}
                  value={reason}
                  onChange={(e) => {
                    setReason(e.target.value);
                    setError(null);
                  }}
                  aria-invalid={error !== null}
                  aria-describedby={error ? errorId : undefined}
                />
              </div>
              {error ? (
                <Alert variant="danger" id={errorId} role="alert">
                  {error}
                </Alert>
              ) : null}
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Button type="button" variant="outline" onClick={() => openReview(false)}>
                  Cancel
                </Button>
                {pending ? (
                  <>
                    <Button
                      type="button"
                      variant={mine ? 'danger' : 'outline'}
                      onClick={() => next(null, 'reject')}
                    >
                      {mine ? 'Withdraw request' : 'Reject'}
                    </Button>
                    {mine ? null : (
                      <Button type="submit" variant="danger">
                        Approve unfreeze
                      </Button>
                    )}
                  </>
                ) : (
                  <Button type="submit" variant="danger">
                    {awaiting ? 'Request a new link' : 'Request unfreeze'}
                  </Button>
                )}
              </div>
            </form>
          )}
        </DialogContent>
      </Dialog>

      <StepUpDialog
        open={confirming !== null}
        title={confirming ? CONFIRM[confirming.kind].title : ''}
        description={`${user.name}: confirm with a fresh code from your authenticator app, a backup code or a passkey.`}
        confirmLabel={confirming ? CONFIRM[confirming.kind].label : ''}
        pendingLabel={confirming ? CONFIRM[confirming.kind].pending : ''}
        danger
        onCancel={() => setConfirming(null)}
        onConfirm={async (stepUp) => {
          if (!confirming) return;
          await act.mutateAsync({ step: confirming, stepUp });
          toast.success(confirming.kind === 'approve' ? 'Account Unfrozen' : 'Freeze Review', {
            description: CONFIRM[confirming.kind].done,
          });
          setConfirming(null);
        }}
        onFailure={(err) => {
          setConfirming(null);
          toast.error('Error', {
            description: errorMessage(err, 'The freeze review failed. Please try again.'),
          });
        }}
      />
    </>
  );
}
