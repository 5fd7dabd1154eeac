import type { TPayoutBatch, TStepUp, TSubmitBatchResponse } from '@coffer/shared';
import { type TFormErrors, useZodForm } from '@web/components/ui/form';
import { errorMessage } from '@web/lib/api-client';
import { type ChangeEvent, useState } from 'react';
import { toast } from 'sonner';
import { useAbandonBatch } from '../api/abandon-batch';
import { useBatchFile } from '../api/batch-file';
import { useBumpBatch } from '../api/bump-batch';
import { useSubmitBatch } from '../api/submit-batch';
import { shortId } from './batch-hash';
import { downloadFile } from './present';

/** What the open step-up dialog confirms. */
type Asking =
  | { kind: 'file' }
  | { kind: 'submit'; signed: string; fileName: string }
  | { kind: 'bump'; feeRate: number }
  | { kind: 'abandon' };

/** The fee bump form: the new rate as typed. */
export type TFeeBumpFields = { feeRate: string };

/** A rate the bump may use: a positive number, above the batch's own rate when it has one. */
function feeRateProblem(
  { feeRate }: TFeeBumpFields,
  current: string | null,
): TFormErrors<TFeeBumpFields> {
  const rate = Number(feeRate);
  if (feeRate.trim() === '' || !Number.isFinite(rate) || rate <= 0) {
    return { feeRate: 'Enter the new fee rate in sat/vB.' };
  }
  if (current !== null && rate <= Number(current)) {
    return { feeRate: `The new rate must be above ${current} sat/vB.` };
  }
  return {};
}

/** The answer to the last action, kept on the card until the next one. */
type Outcome =
  | { kind: 'sent'; result: TSubmitBatchResponse }
  | { kind: 'refused'; title: string; message: string };

const STEP_UP_TEXT: Record<Asking['kind'], { title: string; confirm: string; pending: string }> = {
  file: {
    title: 'Download the batch file',
    confirm: 'Confirm and download',
    pending: 'Fetching...',
  },
  submit: { title: 'Send the signed batch', confirm: 'Confirm and send', pending: 'Sending...' },
  bump: { title: 'Bump the batch fee', confirm: 'Confirm and bump', pending: 'Building...' },
  abandon: {
    title: 'Abandon the batch',
    confirm: 'Confirm and abandon',
    pending: 'Abandoning...',
  },
};

/**
 * What staff can do with a batch, each confirmed with a step-up: fetch the file to sign
 * again, send a signed file, build a fee bump, or abandon a built batch nobody signed. Keeps
 * the open question, the answer to the last action and the fee bump form.
 */
export function useBatchActions(batch: TPayoutBatch) {
  const [asking, setAsking] = useState<Asking | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const bumpForm = useZodForm<TFeeBumpFields>(
    null,
    { feeRate: '' },
    { check: (values) => feeRateProblem(values, batch.feeRate) },
  );
  const file = useBatchFile();
  const submit = useSubmitBatch();
  const bump = useBumpBatch();
  const abandon = useAbandonBatch();

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    if (asking.kind === 'file') {
      downloadFile(await file.mutateAsync({ id: batch.id, stepUp }));
    } else if (asking.kind === 'submit') {
      const result = await submit.mutateAsync({ id: batch.id, signed: asking.signed, stepUp });
      setOutcome({ kind: 'sent', result });
      toast.success(result.sent.length > 0 ? 'Batch sent' : 'Batch already sent');
    } else if (asking.kind === 'abandon') {
      await abandon.mutateAsync({ id: batch.id, stepUp });
      toast.success('Batch abandoned', {
        description: 'Its payouts are approved again and go into the next build.',
      });
    } else {
      const done = await bump.mutateAsync({ id: batch.id, feeRate: asking.feeRate, stepUp });
      bumpForm.reset();
      downloadFile(done.file);
      toast.success('Fee bump built', {
        description: `${done.file.fileName} is downloading: sign it and upload it here.`,
      });
    }
    setAsking(null);
  }

  function failed(err: unknown) {
    const titles: Record<Asking['kind'], string> = {
      file: 'The file was not handed out',
      submit: 'The signed file was refused',
      bump: 'No fee bump was built',
      abandon: 'The batch was not abandoned',
    };
    setOutcome({
      kind: 'refused',
      title: asking ? titles[asking.kind] : 'Refused',
      message: errorMessage(err, 'Please try again.'),
    });
    setAsking(null);
  }

  async function chosen(e: ChangeEvent<HTMLInputElement>) {
    const picked = e.target.files?.[0];
    // The same file may be chosen again after a refusal: clear the input for its change event.
    e.target.value = '';
    if (!picked) return;
    setOutcome(null);
    const signed = (await picked.text()).trim();
    if (signed === '') {
      setOutcome({
        kind: 'refused',
        title: 'The signed file was refused',
        message: `${picked.name} is empty.`,
      });
      return;
    }
    setAsking({ kind: 'submit', signed, fileName: picked.name });
  }

  function askBump({ feeRate }: TFeeBumpFields) {
    setOutcome(null);
    setAsking({ kind: 'bump', feeRate: Number(feeRate) });
  }

  function askFile() {
    setOutcome(null);
    setAsking({ kind: 'file' });
  }

  function askAbandon() {
    setOutcome(null);
    setAsking({ kind: 'abandon' });
  }

  const text = asking ? STEP_UP_TEXT[asking.kind] : STEP_UP_TEXT.file;
  let description = '';
  if (asking?.kind === 'file') description = `The unsigned file of batch ${shortId(batch.id)}.`;
  if (asking?.kind === 'submit') {
    description = `Check ${asking.fileName} against batch ${shortId(batch.id)} and broadcast it.`;
  }
  if (asking?.kind === 'bump') {
    description = `A replacement of batch ${shortId(batch.id)} paying the same payouts at ${asking.feeRate} sat/vB; its file downloads to sign.`;
  }
  if (asking?.kind === 'abandon') {
    const n = batch.payouts.length;
    description = `Batch ${shortId(batch.id)} is dropped: its ${n} payout${n === 1 ? '' : 's'} ${n === 1 ? 'is' : 'are'} approved again and its ${batch.chain === 'bitcoin' ? 'inputs are' : 'nonces are'} free for the next build. A copy of its file signed later is refused.`;
  }

  return {
    outcome,
    bumpForm,
    submitPending: submit.isPending,
    bumpPending: bump.isPending,
    abandonPending: abandon.isPending,
    askFile,
    askAbandon,
    chosen,
    askBump,
    stepUp: {
      open: asking !== null,
      title: text.title,
      description,
      confirmLabel: text.confirm,
      pendingLabel: text.pending,
      danger: asking?.kind === 'abandon',
      onCancel: () => setAsking(null),
      onConfirm: confirm,
      onFailure: failed,
    },
  };
}

export type BatchActions = ReturnType<typeof useBatchActions>;
