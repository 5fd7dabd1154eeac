import type { QueryClient } from '@tanstack/react-query';
import { adminKeys } from '@web/lib/query-keys';

/**
 * After any batch action: the Payouts screen, and Pending withdrawals, whose rows show each
 * payout's state (in a batch, broadcast) and lose their Complete and Reject buttons.
 */
export function refreshPayouts(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.payouts() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.transactions() }),
  ]);
}
