import type { TPayoutBatch } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent } from '@web/components/ui/card';
import { useId } from 'react';
import { BatchActionBar } from './batch-action-bar';
import { BatchHeader } from './batch-header';
import { BatchPayoutsTable } from './batch-payouts-table';
import { SentResult } from './batch-sent-result';
import { useBatchActions } from './use-batch-actions';

/**
 * One batch: its transaction(s), its payouts as the chain sees them, and what staff can do
 * with it: fetch the file to sign again, upload the signed file, and (Bitcoin, broadcast but
 * slow) build a fee bump.
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
