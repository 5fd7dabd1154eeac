import { formatUsd, type TAdminUserFigures, type TAdminUserRow } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import type { ReactNode } from 'react';
import { StakingTime } from './staking-time';
import {
  joinedText,
  lastLoginText,
  RequiredSwitch,
  type RowActions,
  UserActions,
  UserIdentity,
} from './user-row-parts';

/**
 * A customer on a phone: what the table's row says, as a card (no sideways scrolling),
 * with the same switch and row menu.
 */
export function UserCard({
  user: u,
  figures: f,
  ...actions
}: { user: TAdminUserRow; figures: TAdminUserFigures } & RowActions) {
  const facts: Array<[string, ReactNode, string?]> = [
    ['Portfolio Balance', formatUsd(f.portfolioUsd), 'portfolio-usd'],
    ['Staking Balance', formatUsd(f.stakingUsd), 'staking-usd'],
    ['Staking Time', <StakingTime key="time" value={f.stakingTime} />],
    ['Joined', joinedText(u.createdAt)],
    ['Last Login', lastLoginText(u.lastLogin)],
  ];
  return (
    <li className="space-y-3 rounded-lg border border-border p-3" data-testid="user-card">
      <div className="flex items-start justify-between gap-3">
        <UserIdentity user={u} />
        <Badge variant={u.status === 'active' ? 'success' : 'secondary'}>{u.status}</Badge>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        {facts.map(([label, value, testId]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="text-right tabular-nums" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="text-muted">2FA Required</span>
        <RequiredSwitch user={u} {...actions} />
      </div>
      <UserActions user={u} {...actions} />
    </li>
  );
}
