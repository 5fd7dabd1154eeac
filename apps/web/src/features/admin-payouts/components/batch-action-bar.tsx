import type { TPayoutBatch } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Form, FormField, useFieldMessage } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { useCan } from '@web/lib/staff';
import { Ban, Download, Upload } from 'lucide-react';
import { useId, useRef } from 'react';
import { shortId } from './batch-hash';
import type { BatchActions } from './use-batch-actions';

/** Whether a signed file may still be taken: not once the chain settled the batch. */
function takesSigned(batch: TPayoutBatch): boolean {
  return batch.state === 'built' || batch.state === 'broadcast';
}

/** Whether the batch may be abandoned: built, and none of its transactions signed yet. */
function abandonable(batch: TPayoutBatch): boolean {
  return batch.state === 'built' && batch.txHashes.length === 0;
}

/**
 * The buttons under an unfinished batch: download the file, upload the signed one, abandon
 * a built batch nobody signed and (Bitcoin, broadcast but slow) the fee bump form.
 */
export function BatchActionBar({ batch, actions }: { batch: TPayoutBatch; actions: BatchActions }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const mayBuild = useCan()('payouts.build');
  const canBump = batch.chain === 'bitcoin' && batch.state === 'broadcast';
  // Each of these is a treasurer's (the file, the signed file, the bump): others only look.
  if (!mayBuild) return null;
  return (
    <div className="flex flex-col gap-3 border-t border-border pt-4 md:flex-row md:flex-wrap md:items-end md:justify-between">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={actions.askFile}>
          <Download className="h-4 w-4" aria-hidden />
          Download file
        </Button>
        {takesSigned(batch) ? (
          <>
            <Button onClick={() => fileInput.current?.click()} disabled={actions.submitPending}>
              <Upload className="h-4 w-4" aria-hidden />
              Upload signed file
            </Button>
            <input
              ref={fileInput}
              type="file"
              tabIndex={-1}
              aria-label={`Signed file for batch ${shortId(batch.id)}`}
              className="sr-only"
              onChange={(e) => void actions.chosen(e)}
            />
          </>
        ) : null}
        {abandonable(batch) ? (
          <Button variant="outline" onClick={actions.askAbandon} disabled={actions.abandonPending}>
            <Ban className="h-4 w-4" aria-hidden />
            Abandon batch
          </Button>
        ) : null}
      </div>
      {canBump ? <FeeBumpForm actions={actions} /> : null}
    </div>
  );
}

/** A replacement paying the same payouts at a higher fee rate (Bitcoin only). */
function FeeBumpForm({ actions }: { actions: BatchActions }) {
  const id = useId();
  const form = actions.bumpForm;
  // summary: the rate's message sits on a line of its own under the field and the button.
  return (
    <Form
      form={form}
      onSubmit={actions.askBump}
      summary
      formErrorId={`${id}-rate-error`}
      className="flex flex-wrap items-end gap-2"
    >
      <FormField
        name="feeRate"
        id={`${id}-rate`}
        label="New fee rate (sat/vB)"
        className="w-40 space-y-1.5"
      >
        {(control) => (
          <Input
            {...control}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            onChange={(e) => {
              control.onChange(e);
              form.clearErrors('feeRate');
            }}
          />
        )}
      </FormField>
      <Button type="submit" variant="outline" disabled={actions.bumpPending}>
        Bump fee
      </Button>
      <FeeRateMessage id={`${id}-rate-error`} />
    </Form>
  );
}

function FeeRateMessage({ id }: { id: string }) {
  const message = useFieldMessage('feeRate');
  if (!message) return null;
  return (
    <p id={id} role="alert" className="w-full text-sm text-danger">
      {message}
    </p>
  );
}
