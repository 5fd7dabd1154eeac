import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { CustomerText } from '@web/components/ui/customer-text';
import { errorMessage } from '@web/lib/api-client';
import { toast } from 'sonner';
import { type UnfreezeStep, useUnfreezeStep } from '../api/unfreeze-actions';

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

/** A step of the freeze review, sent once the admin confirms it with a fresh second factor. */
export function UnfreezeStepUp({
  user,
  step,
  onClose,
}: {
  user: { id: string; name: string };
  /** The step waiting for the second factor; null when none is. */
  step: UnfreezeStep | null;
  onClose: () => void;
}) {
  const act = useUnfreezeStep(user.id);
  const text = step ? CONFIRM[step.kind] : null;
  return (
    <StepUpDialog
      open={step !== null}
      title={text?.title ?? ''}
      description={
        <>
          <CustomerText text={user.name} />: confirm with a fresh code from your authenticator app,
          a backup code or a passkey.
        </>
      }
      confirmLabel={text?.label ?? ''}
      pendingLabel={text?.pending ?? ''}
      danger
      onCancel={onClose}
      onConfirm={async (stepUp) => {
        if (!step) return;
        await act.mutateAsync({ step, stepUp });
        toast.success(step.kind === 'approve' ? 'Account Unfrozen' : 'Freeze Review', {
          description: CONFIRM[step.kind].done,
        });
        onClose();
      }}
      onFailure={(err) => {
        onClose();
        toast.error('Error', {
          description: errorMessage(err, 'The freeze review failed. Please try again.'),
        });
      }}
    />
  );
}
