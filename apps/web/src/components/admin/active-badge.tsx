import { Badge } from '../ui/badge';

/** Whether a wallet or an address is active, as admin tables show it. */
export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge variant={active ? 'success' : 'secondary'}>{active ? 'Active' : 'Inactive'}</Badge>;
}
