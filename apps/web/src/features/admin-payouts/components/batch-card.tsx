import type { TPayoutBatch } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent } from '@web/components/ui/card';
import { useId } from 'react';
import { BatchActionBar } from './batch-action-bar';
import { Hash } from './batch-hash';
import { BatchHeader } from './batch-header';
import { BatchPayoutsTable } from './batch-payouts-table';
import { SentResult } from './batch-sent-result';
import { dateText } from './present';
import { useBatchActions } from './use-batch-actions';

/**
 * One batch: its transaction(s), what the node last refused to broadcast and why, its
 * payouts as the chain sees them, and what staff can do with it: fetch the file to sign
 * again, upload the signed file, abandon it while nobody signed it, and (Bitcoin, broadcast
 * but slow) build a fee bump.
 */
export function BatchCard({ batch }: { batch: TPayoutBatch }) {
  const titleId = `${useId()}-title`;
  const actions = useBatchActions(batch);
  const { outcome } = actions;
  const finished = batch.state === 'completed' || batch.state === 'abandoned';

  return (
    <Card role="region" aria-labelledby={titleId}>
      <BatchHeader batch={batch} titleId={titleId} />
      <CardContent className="space-y-4">
        <SendErrors batch={batch} />
        <BatchPayoutsTable batch={batch} />

        {outcome?.kind === 'sent' ? <SentResult result={outcome.result} /> : null}
        {outcome?.kind === 'refused' ? (
          <Alert variant="danger" role="alert" title={outcome.title}>
            <span className="whitespace-pre-line break-words">{outcome.message}</span>
          </Alert>
        ) : null}

        {finished ? null : <BatchActionBar batch={batch} actions={actions} />}
      </CardContent>
      <StepUpDialog {...actions.stepUp} />
    </Card>
  );
}

/**
 * The node's words for each transaction it refused to broadcast: the watcher keeps offering
 * the recorded bytes, so this stays until a send is taken or the chain settles it.
 */
function SendErrors({ batch }: { batch: TPayoutBatch }) {
  if (batch.sendErrors.length === 0) return null;
  return (
    <Alert variant="danger" title="The node refused to broadcast">
      <ul className="space-y-2">
        {batch.sendErrors.map((e) => (
          <li key={`${e.txHash ?? ''}-${e.nonce ?? ''}`} className="min-w-0 space-y-0.5">
            {e.txHash ? <Hash hash={e.txHash} /> : null}
            <p className="break-words">
              {e.nonce === null ? '' : `Nonce ${e.nonce}: `}
              {e.message}
            </p>
            <p className="text-xs text-muted">{dateText(e.at)}</p>
          </li>
        ))}
      </ul>
    </Alert>
  );
}
