import type { TFirstRunResponse, TKycProgress } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { outdatedBy, useRealtime } from '@web/lib/realtime';
import { useSession } from '@web/lib/session';
import { Circle, CircleCheck, X } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useDismissFirstRun } from '../api/dismiss-first-run';
import { firstRunClosed, firstRunQueryOptions, useFirstRun } from '../api/get-first-run';

type Step = {
  title: string;
  done: boolean;
  /** Where the step stands, in a few words. */
  status: string;
  /** The screen that does it; none once it is done. */
  action: { to: string; label: string } | null;
};

const KYC_STEP: Record<TKycProgress, Pick<Step, 'status' | 'action'>> = {
  'not-started': {
    status: 'Not started. Your details and a photo of an ID document.',
    action: { to: '/kyc', label: 'Verify identity' },
  },
  submitted: {
    status: 'Submitted: waiting for review.',
    action: { to: '/kyc', label: 'View status' },
  },
  approved: { status: 'Approved.', action: null },
  rejected: {
    status: 'Rejected: see why and send it again.',
    action: { to: '/kyc', label: 'Resubmit' },
  },
};

function stepsOf(state: TFirstRunResponse): Step[] {
  return [
    { title: 'Verify your identity', done: state.kyc === 'approved', ...KYC_STEP[state.kyc] },
    state.deposited
      ? { title: 'Make your first deposit', done: true, status: 'Done.', action: null }
      : {
          title: 'Make your first deposit',
          done: false,
          status: 'Not yet. Send crypto to your deposit address to fund your wallet.',
          action: { to: '/dashboard/deposit', label: 'Make a deposit' },
        },
    state.passkey
      ? { title: 'Add a passkey', done: true, status: 'Added.', action: null }
      : {
          title: 'Add a passkey',
          done: false,
          status: "Not yet. Sign in with your device's screen lock instead of typing a code.",
          action: { to: '/dashboard/settings#passkeys', label: 'Add a passkey' },
        },
  ];
}

/**
 * The dashboard's first-run checklist: verify the identity, make a first deposit, add a
 * passkey, each with its state and a link to the screen that does it. Gone once all three
 * are done or the customer dismisses it (kept with the account, on every device).
 */
export function FirstRunCard() {
  // Staff have no first steps of a customer to take.
  const isAdmin = useSession().data?.user.isAdmin ?? true;
  const firstRun = useFirstRun(!isAdmin);
  const dismiss = useDismissFirstRun();
  const state = firstRun.data;
  const closed = !state || firstRunClosed(state);
  useLiveFirstRun(!isAdmin && !closed);

  if (isAdmin || closed) return null;
  const steps = stepsOf(state);
  const done = steps.filter((s) => s.done).length;

  async function onDismiss() {
    try {
      await dismiss.mutateAsync();
    } catch (err) {
      toast.error('Error', { description: errorMessage(err, 'Could not dismiss the checklist.') });
    }
  }

  return (
    <Card aria-labelledby="first-run-title" role="region">
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="space-y-1">
          <CardTitle id="first-run-title">Get started</CardTitle>
          <CardDescription>
            {done} of {steps.length} done
          </CardDescription>
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="-mr-2 -mt-2 shrink-0 text-muted hover:text-fg"
          onClick={() => void onDismiss()}
          disabled={dismiss.isPending}
          aria-label="Dismiss the checklist"
          title="Dismiss"
        >
          <X className="h-5 w-5 shrink-0" aria-hidden />
        </Button>
      </CardHeader>
      <CardContent>
        <div className="mb-4 h-1.5 overflow-hidden rounded-full bg-border" aria-hidden>
          <div
            className="h-full rounded-full bg-success transition-[width]"
            style={{ width: `${(done / steps.length) * 100}%` }}
          />
        </div>
        <ol className="divide-y divide-border">
          {steps.map((step) => (
            <StepItem key={step.title} step={step} />
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

function StepItem({ step }: { step: Step }) {
  const Icon = step.done ? CircleCheck : Circle;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3 first:pt-0 last:pb-0">
      <Icon
        className={cn('h-5 w-5 shrink-0', step.done ? 'text-success' : 'text-muted')}
        aria-hidden
      />
      <div className="min-w-0 flex-1 basis-48">
        <p className={cn('font-medium', step.done ? 'text-muted' : 'text-fg')}>
          {step.title}
          <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
        </p>
        <p className="text-sm text-muted">{step.status}</p>
      </div>
      {step.action ? (
        <Button asChild size="sm" variant="outline" className="ml-8 sm:ml-0">
          <Link to={step.action.to}>{step.action.label}</Link>
        </Button>
      ) : null}
    </li>
  );
}

/**
 * Reads the open checklist again when the server announces a change it shows: a deposit
 * credited, an identity decision. Admins hear every customer's; only the customer's own count.
 */
function useLiveFirstRun(open: boolean): void {
  const queryClient = useQueryClient();
  const userId = useSession().data?.user.id;
  useRealtime(['ledger.changed', 'kyc.changed'], (notice) => {
    if (!open || ('userId' in notice && notice.userId !== userId)) return;
    void queryClient.invalidateQueries({
      queryKey: firstRunQueryOptions().queryKey,
      predicate: outdatedBy(notice),
    });
  });
}
