import {
  STAFF_ROLE_LABELS,
  type TAdminStaffRow,
  type TStaffRole,
  type TStepUp,
  ZStaffInviteRequest,
  ZStaffRolesRequest,
} from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { DialogContent } from '@web/components/ui/dialog';
import { EmailText } from '@web/components/ui/email-text';
import { Form, FormError, FormField, showServerError, useZodForm } from '@web/components/ui/form';
import { errorMessage } from '@web/lib/api-client';
import { tellProposed } from '@web/lib/staff';
import { useState } from 'react';
import { toast } from 'sonner';
import { useChangeStaffRoles, useInviteStaff } from '../api/staff-actions';
import { RoleCheckboxes } from './role-checkboxes';

/** What an owner's staff proposal says: another owner applies it. */
export const STAFF_PROPOSED = 'Proposed: another owner must approve it before anything changes.';

// The server's own checks, before the step-up is asked for.
const ZInviteFields = ZStaffInviteRequest.omit({ stepUp: true });
const ZRolesFields = ZStaffRolesRequest.omit({ stepUp: true });

type TFields = { email: string; roles: TStaffRole[] };

/**
 * Invite a staff member (`member` null) or change one's roles: the e-mail and the roles,
 * each with its duties, then the owner's step-up. Both are proposals (202): nothing changes
 * until another owner approves. Render inside an open <Dialog>.
 */
export function StaffRolesDialog({
  member,
  onDone,
}: {
  member: TAdminStaffRow | null;
  onDone: () => void;
}) {
  const invite = useInviteStaff();
  const change = useChangeStaffRoles();
  const form = useZodForm<TFields>(member ? ZRolesFields : ZInviteFields, {
    email: member?.email ?? '',
    roles: member?.roles ?? [],
  });
  const [asking, setAsking] = useState(false);
  const roles = form.watch('roles');
  const pending = invite.isPending || change.isPending;
  const roleWords = roles.map((r) => STAFF_ROLE_LABELS[r]).join(', ');

  async function confirm(stepUp: TStepUp) {
    const values = form.getValues();
    const answer = member
      ? await change.mutateAsync({ id: member.id, body: { roles: values.roles, stepUp } })
      : await invite.mutateAsync({ email: values.email.trim(), roles: values.roles, stepUp });
    setAsking(false);
    tellProposed(answer, STAFF_PROPOSED);
    onDone();
  }

  function failed(err: unknown) {
    setAsking(false);
    const failure = member ? 'The roles were not proposed.' : 'The invitation was not proposed.';
    const message = showServerError(form, err, (e) => errorMessage(e, failure));
    toast.error(failure, { description: message });
  }

  return (
    <DialogContent
      title={member ? 'Change roles' : 'Invite staff'}
      description={
        member ? (
          <>
            New roles for <EmailText email={member.email} />: another owner must approve them.
          </>
        ) : (
          'They get an e-mail to set their password and second factor once another owner approves the invitation.'
        )
      }
    >
      <StepUpDialog
        open={asking}
        title={member ? 'Confirm the new roles' : 'Confirm the invitation'}
        description={
          member
            ? `Propose ${roleWords} for ${member.email}.`
            : `Propose inviting ${form.getValues('email').trim()} as ${roleWords}.`
        }
        confirmLabel="Propose"
        pendingLabel="Proposing..."
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Form
        form={form}
        onSubmit={() => {
          form.clearErrors('root');
          setAsking(true);
        }}
        className="space-y-4"
      >
        {member ? null : (
          <FormField name="email" label="E-mail" type="email" autoComplete="off" autoFocus />
        )}
        <RoleCheckboxes
          value={roles}
          onChange={(next) => {
            form.setValue('roles', next);
            form.clearErrors('roles');
          }}
        />
        <FormError />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onDone} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {member ? 'Propose roles' : 'Propose invitation'}
          </Button>
        </div>
      </Form>
    </DialogContent>
  );
}
