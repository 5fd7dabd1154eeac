import type { TSubmitBatchResponse } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Hash } from './batch-hash';

/** What an upload did: the transactions sent now, and those the chain already had. */
export function SentResult({ result }: { result: TSubmitBatchResponse }) {
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
