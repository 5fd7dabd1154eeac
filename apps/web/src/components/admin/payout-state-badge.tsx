import type { TPayoutState } from '@coffer/shared';
import { Badge } from '../ui/badge';

/**
 * How a crypto payout stands on its way out, in the words staff read on Pending withdrawals
 * and on Payouts. `manual` is a hash staff typed that the chain has not shown yet.
 */
export const PAYOUT_STATE_LABELS: Record<TPayoutState, string> = {
  approved: 'Approved',
  'in-batch': 'In batch',
  broadcast: 'Broadcast',
  confirming: 'Confirming',
  completed: 'Completed',
  manual: 'Waiting for the chain',
  unverified: 'Unverified',
  'reversed-on-chain': 'Reversed on chain',
};

/**
 * A payout's state as a badge. Unverified is outlined in the warning colour: the money left
 * on staff's word alone, on a chain Coffer does not watch.
 */
export function PayoutStateBadge({ state }: { state: TPayoutState }) {
  if (state === 'completed') return <Badge variant="success">{PAYOUT_STATE_LABELS[state]}</Badge>;
  // Paid, debited, and then gone from the chain: staff must act on it.
  if (state === 'reversed-on-chain') {
    return (
      <Badge variant="outline" className="border-danger/60 text-danger">
        {PAYOUT_STATE_LABELS[state]}
      </Badge>
    );
  }
  if (state === 'unverified') {
    return (
      <Badge variant="outline" className="border-warning text-warning">
        {PAYOUT_STATE_LABELS[state]}
      </Badge>
    );
  }
  if (state === 'approved') return <Badge variant="outline">{PAYOUT_STATE_LABELS[state]}</Badge>;
  return <Badge variant="secondary">{PAYOUT_STATE_LABELS[state]}</Badge>;
}
