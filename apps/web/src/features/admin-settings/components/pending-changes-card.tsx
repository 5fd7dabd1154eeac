import {
  formatDateTime,
  SETTINGS_MSG,
  settingLabel,
  type TAppSetting,
  type TPendingSettingChange,
  type TStepUp,
} from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { EmailText } from '@web/components/ui/email-text';
import { errorMessage } from '@web/lib/api-client';
import { useSession } from '@web/lib/session';
import { useCan } from '@web/lib/staff';
import { Check, ShieldCheck, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useApproveSettingChange } from '../api/approve-setting-change';
import { useRejectSettingChange } from '../api/reject-setting-change';
import { showSettingValue } from './setting-field';

type Asking = { change: TPendingSettingChange; decision: 'approve' | 'reject' | 'withdraw' };

const DIALOG: Record<Asking['decision'], { title: string; confirm: string; pending: string }> = {
  approve: { title: 'Approve this change', confirm: 'Approve', pending: 'Approving...' },
  reject: { title: 'Reject this change', confirm: 'Reject', pending: 'Rejecting...' },
  withdraw: { title: 'Withdraw your proposal', confirm: 'Withdraw', pending: 'Withdrawing...' },
};

/**
 * Four eyes on risk settings: the changes waiting for a second admin, with who proposed
 * what and when. Another admin approves or rejects each with a fresh second factor; the
 * proposer is told it needs someone else, and may withdraw it.
 */
export function PendingChangesCard({
  pending,
  settings,
}: {
  pending: TPendingSettingChange[];
  settings: TAppSetting[];
}) {
  const session = useSession();
  const approve = useApproveSettingChange();
  const reject = useRejectSettingChange();
  const [asking, setAsking] = useState<Asking | null>(null);
  const me = session.data?.user.id;
  const mayDecide = useCan()('changes.decide');

  if (pending.length === 0) return null;

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    const input = { id: asking.change.id, stepUp };
    if (asking.decision === 'approve') {
      await approve.mutateAsync(input);
      toast.success(SETTINGS_MSG.approved);
    } else {
      await reject.mutateAsync(input);
      toast.success(SETTINGS_MSG.rejected);
    }
    setAsking(null);
  }

  function failed(err: unknown) {
    const approving = asking?.decision === 'approve';
    setAsking(null);
    toast.error(approving ? SETTINGS_MSG.approveFailed : SETTINGS_MSG.rejectFailed, {
      description: errorMessage(err, 'Request failed'),
    });
  }

  const current = (key: string) => settings.find((s) => s.key === key)?.value ?? '';
  const describe = (c: TPendingSettingChange) =>
    `${settingLabel(c.key)}: from ${showSettingValue(current(c.key))} to ${showSettingValue(c.value)}, proposed by ${c.proposedBy.email}.`;
  const dialog = asking ? DIALOG[asking.decision] : DIALOG.approve;

  return (
    <Card role="region" aria-labelledby="pending-changes-title" className="border-warning">
      <CardHeader>
        <CardTitle id="pending-changes-title" className="flex items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-warning" aria-hidden />
          Awaiting approval
        </CardTitle>
        <CardDescription>
          Risk settings change only when a second admin approves: the admin who proposed a change
          cannot approve it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-label="Changes awaiting approval" className="divide-y divide-border">
          {pending.map((c) => {
            const mine = c.proposedBy.id === me;
            return (
              <li
                key={c.id}
                className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0 space-y-1">
                  <p className="font-semibold text-fg">{settingLabel(c.key)}</p>
                  <p className="break-all text-sm text-fg">
                    <span className="text-muted">From </span>
                    <del className="font-mono">{showSettingValue(current(c.key))}</del>
                    <span className="text-muted"> to </span>
                    <ins className="font-mono font-semibold no-underline">
                      {showSettingValue(c.value)}
                    </ins>
                  </p>
                  <p className="break-words text-xs text-muted">
                    Proposed by {mine ? 'you' : <EmailText email={c.proposedBy.email} />} on{' '}
                    <time dateTime={c.proposedAt}>{formatDateTime(c.proposedAt)}</time>
                  </p>
                  {mine ? (
                    <p className="text-xs font-medium text-warning">
                      Another admin must approve this change before it takes effect.
                    </p>
                  ) : null}
                </div>
                <div className="flex shrink-0 flex-wrap gap-2">
                  {mine ? (
                    <Button
                      variant="outline"
                      onClick={() => setAsking({ change: c, decision: 'withdraw' })}
                    >
                      <X className="h-4 w-4" aria-hidden />
                      Withdraw
                    </Button>
                  ) : mayDecide ? (
                    <>
                      <Button
                        variant="outline"
                        onClick={() => setAsking({ change: c, decision: 'reject' })}
                      >
                        <X className="h-4 w-4" aria-hidden />
                        Reject
                      </Button>
                      <Button onClick={() => setAsking({ change: c, decision: 'approve' })}>
                        <Check className="h-4 w-4" aria-hidden />
                        Approve
                      </Button>
                    </>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
      <StepUpDialog
        open={asking !== null}
        title={dialog.title}
        description={asking ? describe(asking.change) : ''}
        confirmLabel={dialog.confirm}
        pendingLabel={dialog.pending}
        danger={asking?.decision === 'reject'}
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
    </Card>
  );
}
