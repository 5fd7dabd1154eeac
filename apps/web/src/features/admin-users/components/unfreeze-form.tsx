import {
  formatDateTime,
  type TPendingUnfreeze,
  UNFREEZE_REASON_MISSING,
  ZUnfreezeRejection,
  ZUnfreezeRequest,
} from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Form, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { useId, useRef } from 'react';
import type { UnfreezeStep } from '../api/unfreeze-actions';

/** What a step's reason must be, as the server checks it; approving takes none. */
const REASON_SCHEMA = {
  request: ZUnfreezeRequest.pick({ reason: true }),
  reject: ZUnfreezeRejection.pick({ reason: true }),
  approve: null,
} as const;

type TFields = { reason: string };

/** The request waiting for a second admin: who asked, when and why. */
function PendingRequest({ pending, mine }: { pending: TPendingUnfreeze; mine: boolean }) {
  return (
    <Alert variant="warning" title="Unfreeze requested">
      <p>
        By {mine ? 'you' : (pending.requestedBy.email ?? 'a former admin')} on{' '}
        {formatDateTime(pending.requestedAt)}.
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words">Reason: {pending.reason}</p>
      {mine ? <p className="mt-1">Another admin must approve it (four eyes).</p> : null}
    </Alert>
  );
}

/**
 * The review's form: with no request waiting, how the account was reviewed (Request); with
 * one, Approve, or Reject (Withdraw for the admin who asked) saying why. Each step's reason
 * is checked before the second factor is asked for.
 */
export function UnfreezeForm({
  pending,
  mine,
  awaiting,
  onCancel,
  onNext,
}: {
  pending: TPendingUnfreeze | null;
  /** The waiting request is this admin's own. */
  mine: boolean;
  /** Unfrozen, but the customer has not set a new password yet. */
  awaiting: boolean;
  onCancel: () => void;
  /** The checked step, for the second factor. */
  onNext: (step: UnfreezeStep) => void;
}) {
  const reasonId = useId();
  const errorId = useId();
  // Which button sent the form: Reject and Approve share it, and check the reason differently.
  const step = useRef<UnfreezeStep['kind']>('request');
  const form = useZodForm<TFields>(
    null,
    { reason: '' },
    {
      check: (values) => {
        const schema = REASON_SCHEMA[step.current];
        const parsed = schema?.safeParse(values);
        if (!parsed || parsed.success) return {};
        return { reason: parsed.error.issues[0]?.message ?? UNFREEZE_REASON_MISSING };
      },
    },
  );
  const reason = form.watch('reason');
  const error = form.formState.errors.reason?.message;

  function submit(values: TFields) {
    const kind = step.current;
    onNext(kind === 'approve' ? { kind } : { kind, reason: values.reason.trim() });
  }

  /** A button that sends the form as this step. */
  const sendAs = (kind: UnfreezeStep['kind']) => () => {
    step.current = kind;
  };

  return (
    <Form form={form} onSubmit={submit} className="space-y-4">
      {pending ? <PendingRequest pending={pending} mine={mine} /> : null}
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
            form.setValue('reason', e.target.value);
            form.clearErrors('reason');
          }}
          aria-invalid={error !== undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      {error ? (
        <Alert variant="danger" id={errorId} role="alert">
          {error}
        </Alert>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        {pending ? (
          <>
            <Button type="submit" variant={mine ? 'danger' : 'outline'} onClick={sendAs('reject')}>
              {mine ? 'Withdraw request' : 'Reject'}
            </Button>
            {mine ? null : (
              <Button type="submit" variant="danger" onClick={sendAs('approve')}>
                Approve unfreeze
              </Button>
            )}
          </>
        ) : (
          <Button type="submit" variant="danger" onClick={sendAs('request')}>
            {awaiting ? 'Request a new link' : 'Request unfreeze'}
          </Button>
        )}
      </div>
    </Form>
  );
}
