import type { TKycStatus } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';

const LABEL: Record<TKycStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

export function KycBadge({ status }: { status: TKycStatus }) {
  const variant =
    status === 'approved' ? 'success' : status === 'rejected' ? 'destructive' : 'secondary';
  return <Badge variant={variant}>{LABEL[status]}</Badge>;
}
