import { formatUsd, type TAdminUserFigures, type TAdminUserRow } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { ScrollRegion } from '@web/components/ui/scroll-region';
import { StakingTime } from './staking-time';
import { UserCard } from './user-card';
import {
  joinedText,
  lastLoginText,
  RequiredSwitch,
  type RowActions,
  UserActions,
  UserIdentity,
} from './user-row-parts';

/**
 * One page of customers with their live balances (the figures fetched beside the page): a
 * table from 768 px, a card per customer below, each with its actions in a row menu.
 */
export function UsersTable({
  rows,
  liveFigures,
  ...actions
}: { rows: TAdminUserRow[]; liveFigures: Map<string, TAdminUserFigures> } & RowActions) {
  return (
    <>
      {/* Between 768 px and a wide screen the table scrolls sideways in its own box. */}
      <div className="max-md:hidden">
        <ScrollRegion label="Users" bleed>
          <table className="w-full min-w-[1000px] text-left text-sm">
            <caption className="sr-only">Users</caption>
            <thead className="border-b border-border text-xs uppercase text-muted">
              <tr>
                {[
                  'User',
                  'Status',
                  'Portfolio Balance',
                  'Staking Balance',
                  'Staking Time',
                  'Joined',
                  'Last Login',
                  '2FA Required',
                ].map((h) => (
                  <th key={h} scope="col" className="py-2 pr-4 font-medium">
                    {h}
                  </th>
                ))}
                <th scope="col" className="py-2 font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {rows.map((u) => (
                <UserRow
                  key={u.id}
                  user={u}
                  figures={liveFigures.get(u.id) ?? u.figures}
                  {...actions}
                />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </div>
      <ul aria-label="Users" className="space-y-3 md:hidden">
        {rows.map((u) => (
          <UserCard key={u.id} user={u} figures={liveFigures.get(u.id) ?? u.figures} {...actions} />
        ))}
      </ul>
    </>
  );
}

function UserRow({
  user: u,
  figures: f,
  ...actions
}: { user: TAdminUserRow; figures: TAdminUserFigures } & RowActions) {
  return (
    <tr className="align-top">
      <td className="py-3 pr-4">
        <UserIdentity user={u} />
      </td>
      <td className="py-3 pr-4">
        <Badge variant={u.status === 'active' ? 'success' : 'secondary'}>{u.status}</Badge>
      </td>
      <td className="py-3 pr-4 tabular-nums" data-testid="portfolio-usd">
        {formatUsd(f.portfolioUsd)}
      </td>
      <td className="py-3 pr-4 tabular-nums" data-testid="staking-usd">
        {formatUsd(f.stakingUsd)}
      </td>
      <td className="py-3 pr-4">
        <StakingTime value={f.stakingTime} />
      </td>
      <td className="py-3 pr-4 whitespace-nowrap">{joinedText(u.createdAt)}</td>
      <td className="py-3 pr-4 whitespace-nowrap">{lastLoginText(u.lastLogin)}</td>
      <td className="py-3 pr-4">
        <RequiredSwitch user={u} {...actions} />
      </td>
      <td className="py-3">
        <UserActions user={u} {...actions} />
      </td>
    </tr>
  );
}
