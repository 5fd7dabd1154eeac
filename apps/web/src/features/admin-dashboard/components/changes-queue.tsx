import { formatDateTime, type TPendingChange, type TStepUp } from '@coffer/shared';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { EmailText } from '@web/components/ui/email-text';
import { RelativeTime } from '@web/components/ui/relative-time';
import { errorMessage } from '@web/lib/api-client';
import { useSession } from '@web/lib/session';
import { useCan } from '@web/lib/staff';
import { Check, ShieldCheck, Undo2, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { useDecideChange } from '../api/decide-change';
import { useChanges } from '../api/get-changes';
import { BeforeAfter, wordsOf } from './change-values';

type TAsk = 'approve' | 'reject' | 'withdraw';
type Asking = { change: TPendingChange; ask: TAsk };

const DIALOG: Record<TAsk, { title: string; confirm: string; pending: string; done: string }> = {
  approve: {
    title: 'Approve this change',
    confirm: 'Approve',
    pending: 'Approving...',
    done: 'Change approved and applied',
  },
  reject: {
    title: 'Reject this change',
    confirm: 'Reject',
    pending: 'Rejecting...',
    done: 'Change rejected: nothing was changed',
  },
  withdraw: {
    title: 'Withdraw your proposal',
    confirm: 'Withdraw',
    pending: 'Withdrawing...',
    done: 'Proposal withdrawn: nothing was changed',
  },
};

function ChangeItem({
  change,
  me,
  mayDecide,
  onAsk,
}: {
  change: TPendingChange;
  me: string | undefined;
  mayDecide: boolean;
  onAsk: (ask: TAsk) => void;
}) {
  const mine = change.proposedBy.id === me;
  const aboutMe = change.subject?.id === me;
  return (
    <li className="space-y-3 py-5 first:pt-0 last:pb-0" aria-label={change.summary}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-fg [overflow-wrap:anywhere]">{change.summary}</span>
            <Badge variant="secondary">{wordsOf(change.kind)}</Badge>
          </p>
          <p className="text-xs text-muted [overflow-wrap:anywhere]">
            Proposed by {mine ? 'you' : <EmailText email={change.proposedBy.email} />}{' '}
            <RelativeTime iso={change.proposedAt} /> · expires{' '}
            <time dateTime={change.expiresAt}>{formatDateTime(change.expiresAt)}</time>
          </p>
          {change.subject ? (
            <p className="text-xs text-muted [overflow-wrap:anywhere]">
              Concerns {aboutMe ? 'you' : <EmailText email={change.subject.email} />}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {mine ? (
            <Button variant="outline" size="sm" onClick={() => onAsk('withdraw')}>
              <Undo2 className="h-4 w-4" aria-hidden />
              Withdraw
            </Button>
          ) : mayDecide && !aboutMe ? (
            <>
              <Button variant="outline" size="sm" onClick={() => onAsk('reject')}>
                <X className="h-4 w-4" aria-hidden />
                Reject
              </Button>
              <Button size="sm" onClick={() => onAsk('approve')}>
                <Check className="h-4 w-4" aria-hidden />
                Approve
              </Button>
            </>
          ) : null}
        </div>
      </div>
      <BeforeAfter before={change.before} after={change.after} />
      {mine ? (
        <p className="text-xs font-medium text-warning">
          Another staff member must approve your proposal before anything changes.
        </p>
      ) : aboutMe ? (
        <p className="text-xs font-medium text-warning">
          This change concerns your own account: another staff member must approve it.
        </p>
      ) : null}
    </li>
  );
}

/**
 * The staff home's queue: every change waiting for a second staff member (money, addresses,
 * settings, staff), with what it does before and after. Who may decide approves or rejects
 * each with a fresh second factor; the proposer may withdraw theirs; the server decides.
 */
export function ChangesQueue() {
  const changes = useChanges();
  const session = useSession();
  const can = useCan();
  const decide = useDecideChange();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const me = session.data?.user.id;
  const mayDecide = can('changes.decide');
  const dialog = DIALOG[asking?.ask ?? 'approve'];

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    const decision = asking.ask === 'approve' ? 'approve' : 'reject';
    await decide.mutateAsync({ id: asking.change.id, decision, stepUp });
    toast.success(DIALOG[asking.ask].done, { description: asking.change.summary });
    setAsking(null);
    setRefusal(null);
  }

  function failed(err: unknown) {
    const message = errorMessage(err, 'The decision could not be saved. Please try again.');
    setAsking(null);
    setRefusal(message);
    toast.error('Not decided', { description: message });
  }

  const count = changes.data?.count ?? 0;
  let body: ReactNode;
  if (changes.isPending) {
    body = <LoadingState label="Loading the changes waiting" className="py-6" />;
  } else if (changes.isError) {
    body = (
      <LoadError
        message={`Could not load the changes waiting: ${changes.error.message}`}
        onRetry={() => void changes.refetch()}
        className="py-2"
      />
    );
  } else if (changes.data.changes.length === 0) {
    body = <p className="text-sm text-muted">Nothing is waiting for a second staff member.</p>;
  } else {
    body = (
      <ul aria-label="Changes waiting" className="divide-y divide-border">
        {changes.data.changes.map((c) => (
          <ChangeItem
            key={c.id}
            change={c}
            me={me}
            mayDecide={mayDecide}
            onAsk={(ask) => {
              setRefusal(null);
              setAsking({ change: c, ask });
            }}
          />
        ))}
      </ul>
    );
  }

  return (
    <Card role="region" aria-labelledby="changes-waiting-title">
      <CardHeader>
        <CardTitle id="changes-waiting-title" className="flex flex-wrap items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-primary" aria-hidden />
          Changes waiting
          {changes.isSuccess ? (
            <Badge
              variant={count > 0 ? 'default' : 'secondary'}
              aria-label={`${count} waiting`}
              data-testid="changes-count"
            >
              {count}
            </Badge>
          ) : null}
        </CardTitle>
        <CardDescription>
          Nothing that creates, moves or redirects money applies until a second staff member
          approves it. Nobody approves their own proposal or a change that concerns them.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {refusal ? (
          <Alert variant="danger" role="alert" title="Not decided">
            {refusal}
          </Alert>
        ) : null}
        {body}
      </CardContent>
      <StepUpDialog
        open={asking !== null}
        title={dialog.title}
        description={asking ? asking.change.summary : ''}
        confirmLabel={dialog.confirm}
        pendingLabel={dialog.pending}
        danger={asking?.ask === 'reject'}
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
    </Card>
  );
}
