import type { TAdminStaffRow, TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { DialogContent } from '@web/components/ui/dialog';
import { EmailText } from '@web/components/ui/email-text';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { toast } from 'sonner';
import { useRemoveStaff } from '../api/staff-actions';

/**
 * Remove a staff member: one owner, at once (fewer hands is never a risk), after this
 * confirmation and the owner's step-up. The last owner is refused (409), said here.
 * Render inside an open <Dialog>.
 */
export function RemoveStaffDialog({
  member,
  onDone,
}: {
  member: TAdminStaffRow;
  onDone: () => void;
}) {
  const remove = useRemoveStaff();
  const [asking, setAsking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function confirm(stepUp: TStepUp) {
    const removed = await remove.mutateAsync({ id: member.id, body: { stepUp } });
    setAsking(false);
    toast.success('Staff member removed', {
      description: `${removed.email} is no longer on the staff${
        removed.sessionsEnded > 0
          ? ` (${removed.sessionsEnded === 1 ? '1 session' : `${removed.sessionsEnded} sessions`} ended)`
          : ''
      }.`,
    });
    onDone();
  }

  function failed(err: unknown) {
    setAsking(false);
    const message = errorMessage(err, 'The staff member was not removed. Please try again.');
    setRefusal(message);
    toast.error('Not removed', { description: message });
  }

  return (
    <DialogContent
      title="Remove staff member"
      description={
        <>
          <EmailText email={member.email} /> loses every role and is signed out at once.
        </>
      }
    >
      <StepUpDialog
        open={asking}
        title="Confirm the removal"
        description={`Remove ${member.email} from the staff.`}
        confirmLabel="Remove"
        pendingLabel="Removing..."
        danger
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      {refusal ? (
        <Alert variant="danger" role="alert" className="mb-4">
          {refusal}
        </Alert>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => setAsking(true)} disabled={remove.isPending}>
          {remove.isPending ? 'Removing...' : 'Remove'}
        </Button>
      </div>
    </DialogContent>
  );
}
