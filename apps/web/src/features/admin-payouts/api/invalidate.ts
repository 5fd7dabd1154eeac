import type { QueryClient } from '@tanstack/react-query';

/**
 * After any batch action: the Payouts screen, and Pending withdrawals, whose rows show each
 * payout's state (in a batch, broadcast) and lose their Complete and Reject buttons.
 */
export function refreshPayouts(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['admin', 'payouts'] }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'transactions'] }),
  ]);
}
