import type { TPayoutBatch, TStepUp, TSubmitBatchResponse } from '@coffer/shared';
import { Download, Upload } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { CopyValueButton } from '../../../components/admin/copy-value-button';
import { CopyableAddress } from '../../../components/admin/copyable-address';
import { PayoutStateBadge } from '../../../components/admin/payout-state-badge';
import { STACKED } from '../../../components/admin/stacked-table';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useBatchFile } from '../api/batch-file';
import { useBumpBatch } from '../api/bump-batch';
import { useSubmitBatch } from '../api/submit-batch';
import {
  amountText,
  assetLabel,
  BatchStateBadge,
  CHAIN_LABELS,
  dateText,
  downloadFile,
  FEE_ASSET,
} from './present';

/** What the open step-up dialog confirms. */
type Asking =
  | { kind: 'file' }
  | { kind: 'submit'; signed: string; fileName: string }
  | { kind: 'bump'; feeRate: number };

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
};

function shortId(id: string): string {
  return id.slice(0, 8);
}

function Hash({ hash }: { hash: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span translate="no" className="truncate font-mono text-xs" title={hash}>
        {hash}
      </span>
      <CopyValueButton value={hash} label="Copy transaction hash" />
    </span>
  );
}

function feeText(batch: TPayoutBatch): string {
  if (batch.fee === null) return '—';
  const fee = amountText(FEE_ASSET[batch.chain], batch.fee);
  return batch.feeRate ? `${fee} (${batch.feeRate} sat/vB)` : fee;
}

/** Whether a signed file may still be taken: not once the chain settled the batch. */
function takesSigned(batch: TPayoutBatch): boolean {
  return batch.state === 'built' || batch.state === 'broadcast';
}

/**
 * One batch: its transaction(s), its payouts as the chain sees them, and what staff can do
 * with it: fetch the file to sign again, upload the signed file, and (Bitcoin, broadcast but
 * slow) build a fee bump.
 */
export function BatchCard({ batch }: { batch: TPayoutBatch }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [feeRate, setFeeRate] = useState('');
  const [feeError, setFeeError] = useState<string | null>(null);
  const file = useBatchFile();
  const submit = useSubmitBatch();
  const bump = useBumpBatch();
  const titleId = `${id}-title`;
  const canBump = batch.chain === 'bitcoin' && batch.state === 'broadcast';
  const finished = batch.state === 'completed' || batch.state === 'abandoned';

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    if (asking.kind === 'file') {
      downloadFile(await file.mutateAsync({ id: batch.id, stepUp }));
    } else if (asking.kind === 'submit') {
      const result = await submit.mutateAsync({ id: batch.id, signed: asking.signed, stepUp });
      setOutcome({ kind: 'sent', result });
      toast.success(result.sent.length > 0 ? 'Batch sent' : 'Batch already sent');
    } else {
      const done = await bump.mutateAsync({ id: batch.id, feeRate: asking.feeRate, stepUp });
      setFeeRate('');
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

  function askBump(e: FormEvent) {
    e.preventDefault();
    const rate = Number(feeRate);
    if (feeRate.trim() === '' || !Number.isFinite(rate) || rate <= 0) {
      setFeeError('Enter the new fee rate in sat/vB.');
      return;
    }
    if (batch.feeRate !== null && rate <= Number(batch.feeRate)) {
      setFeeError(`The new rate must be above ${batch.feeRate} sat/vB.`);
      return;
    }
    setFeeError(null);
    setOutcome(null);
    setAsking({ kind: 'bump', feeRate: rate });
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

  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id={titleId} className="text-base">
            {CHAIN_LABELS[batch.chain]} batch{' '}
            <span translate="no" className="font-mono">
              {shortId(batch.id)}
            </span>
          </CardTitle>
          <BatchStateBadge state={batch.state} />
        </div>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <div className="min-w-0">
            <dt className="text-xs text-muted">Created</dt>
            <dd className="text-fg">{dateText(batch.createdAt)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs text-muted">Fee</dt>
            <dd className="break-words tabular-nums text-fg">{feeText(batch)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs text-muted">File</dt>
            <dd
              translate="no"
              className="truncate font-mono text-xs text-fg"
              title={batch.fileName}
            >
              {batch.fileName}
            </dd>
          </div>
          <div className="min-w-0 sm:col-span-2 lg:col-span-3">
            <dt className="text-xs text-muted">
              Transaction{batch.txHashes.length === 1 ? '' : 's'}
            </dt>
            <dd className="min-w-0">
              {batch.txHashes.length === 0 ? (
                <span className="text-muted">not signed yet</span>
              ) : (
                <ul className="min-w-0">
                  {batch.txHashes.map((h) => (
                    <li key={h} className="min-w-0">
                      <Hash hash={h} />
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>
      </CardHeader>
      <CardContent className="space-y-4">
        <table className={STACKED.table}>
          <caption className="sr-only">Payouts of batch {shortId(batch.id)}</caption>
          <thead className={STACKED.head}>
            <tr>
              <th className={STACKED.headCell}>Customer</th>
              <th className={cn(STACKED.headCell, 'text-right')}>Amount</th>
              <th className={STACKED.headCell}>Address</th>
              <th className={STACKED.headCell}>State</th>
              <th className={STACKED.headCell}>Confirmations</th>
              <th className={cn(STACKED.headCell, 'text-right')}>Network fee</th>
            </tr>
          </thead>
          <tbody className={STACKED.body}>
            {batch.payouts.map((p) => (
              <tr key={p.id} className={STACKED.row}>
                <td data-label="Customer" className={STACKED.cell}>
                  <span className="min-w-0 break-words max-md:text-right">{p.customerEmail}</span>
                </td>
                <td data-label="Amount" className={cn(STACKED.cell, 'tabular-nums md:text-right')}>
                  <span className="whitespace-nowrap">{amountText(p.assetId, p.amount)}</span>
                </td>
                <td data-label="Address" className={STACKED.cell}>
                  <CopyableAddress
                    address={p.address}
                    symbol={assetLabel(p.assetId)}
                    className="max-w-[9rem] lg:max-w-[14rem]"
                  />
                </td>
                <td data-label="State" className={STACKED.cell}>
                  <PayoutStateBadge state={p.state} />
                </td>
                <td data-label="Confirmations" className={cn(STACKED.cell, 'tabular-nums')}>
                  {p.txHash ? `${Math.min(p.confirmations, p.required)} of ${p.required}` : '—'}
                </td>
                <td
                  data-label="Network fee"
                  className={cn(STACKED.cell, 'tabular-nums md:text-right')}
                >
                  <span className="whitespace-nowrap">
                    {p.networkFee ? amountText(FEE_ASSET[batch.chain], p.networkFee) : '—'}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>

        {outcome?.kind === 'sent' ? <SentResult result={outcome.result} /> : null}
        {outcome?.kind === 'refused' ? (
          <Alert variant="danger" role="alert" title={outcome.title}>
            <span className="whitespace-pre-line break-words">{outcome.message}</span>
          </Alert>
        ) : null}

        {finished ? null : (
          <div className="flex flex-col gap-3 border-t border-border pt-4 md:flex-row md:flex-wrap md:items-end md:justify-between">
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                onClick={() => {
                  setOutcome(null);
                  setAsking({ kind: 'file' });
                }}
              >
                <Download className="h-4 w-4" aria-hidden />
                Download file
              </Button>
              {takesSigned(batch) ? (
                <>
                  <Button onClick={() => fileInput.current?.click()} disabled={submit.isPending}>
                    <Upload className="h-4 w-4" aria-hidden />
                    Upload signed file
                  </Button>
                  <input
                    ref={fileInput}
                    type="file"
                    tabIndex={-1}
                    aria-label={`Signed file for batch ${shortId(batch.id)}`}
                    className="sr-only"
                    onChange={(e) => void chosen(e)}
                  />
                </>
              ) : null}
            </div>
            {canBump ? (
              <form noValidate onSubmit={askBump} className="flex flex-wrap items-end gap-2">
                <div className="w-40 space-y-1.5">
                  <Label htmlFor={`${id}-rate`}>New fee rate (sat/vB)</Label>
                  <Input
                    id={`${id}-rate`}
                    type="number"
                    inputMode="decimal"
                    min={0}
                    step="any"
                    value={feeRate}
                    onChange={(e) => {
                      setFeeRate(e.target.value);
                      setFeeError(null);
                    }}
                    aria-invalid={feeError ? true : undefined}
                    aria-describedby={feeError ? `${id}-rate-error` : undefined}
                  />
                </div>
                <Button type="submit" variant="outline" disabled={bump.isPending}>
                  Bump fee
                </Button>
                {feeError ? (
                  <p id={`${id}-rate-error`} role="alert" className="w-full text-sm text-danger">
                    {feeError}
                  </p>
                ) : null}
              </form>
            ) : null}
          </div>
        )}
      </CardContent>
      <StepUpDialog
        open={asking !== null}
        title={text.title}
        description={description}
        confirmLabel={text.confirm}
        pendingLabel={text.pending}
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
    </Card>
  );
}

/** What an upload did: the transactions sent now, and those the chain already had. */
function SentResult({ result }: { result: TSubmitBatchResponse }) {
  return (
    <Alert role="status" title={result.sent.length > 0 ? 'Sent' : 'Already sent'}>
      <div className="space-y-1">
        {result.sent.length > 0 ? (
          <p>
            Broadcast now: {result.sent.length} transaction{result.sent.length === 1 ? '' : 's'}.
          </p>
        ) : null}
        {result.sent.map((h) => (
          <Hash key={h} hash={h} />
        ))}
        {result.alreadySent.length > 0 ? (
          <p>
            Recorded before, not sent again: {result.alreadySent.length} transaction
            {result.alreadySent.length === 1 ? '' : 's'}.
          </p>
        ) : null}
        {result.alreadySent.map((h) => (
          <Hash key={h} hash={h} />
        ))}
      </div>
    </Alert>
  );
}
