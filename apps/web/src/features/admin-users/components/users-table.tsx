import {
  formatDate,
  formatDateTime,
  formatUsd,
  type TAdminUserFigures,
  type TAdminUserRow,
} from '@coffer/shared';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-picker';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { EmailText } from '@web/components/ui/email-text';
import { ScrollRegion } from '@web/components/ui/scroll-region';
import { Switch } from '@web/components/ui/switch';
import { SecurityActivityButton } from './security-activity-dialog';
import { StakingTime } from './staking-time';
import { UnfreezeReview } from './unfreeze-review';

/** What staff can do from a customer's row; the page owns the dialogs these open. */
type RowActions = {
  /** A 2FA requirement change is on its way: the switches wait for it. */
  requiredPending: boolean;
  /** A 2FA disable is on its way: the Disable buttons wait for it. */
  disablePending: boolean;
  onToggleRequired: (user: TAdminUserRow, required: boolean) => void;
  onReset: (user: { id: string; name: string }) => void;
  onDisable: (user: TAdminUserRow) => void;
};

/** One page of customers with their live balances (the figures fetched beside the page). */
export function UsersTable({
  rows,
  liveFigures,
  ...actions
}: { rows: TAdminUserRow[]; liveFigures: Map<string, TAdminUserFigures> } & RowActions) {
  return (
    <ScrollRegion label="Users" bleed>
      <table className="w-full min-w-[1040px] text-left text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="border-b border-border text-xs uppercase text-muted">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              User
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Status
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Portfolio Balance
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Staking Balance
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Staking Time
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Joined
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Last Login
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              2FA Required
            </th>
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
  );
}

function UserRow({
  user: u,
  figures: f,
  requiredPending,
  disablePending,
  onToggleRequired,
  onReset,
  onDisable,
}: { user: TAdminUserRow; figures: TAdminUserFigures } & RowActions) {
  const name = userDisplayName(u);
  const email = userEmailBesideName(u);
  return (
    <tr className="align-top">
      <td className="py-3 pr-4">
        <div className="flex items-center gap-3">
          <span
            aria-hidden
            className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-surface-2 font-semibold text-primary"
          >
            {name.charAt(0).toUpperCase()}
          </span>
          <div className="min-w-0">
            <p className="font-medium text-fg">{email ? name : <EmailText email={name} />}</p>
            <p className="text-xs text-muted">
              <span className="font-mono">{u.id.slice(0, 8)}</span>
              {email ? (
                <>
                  {' · '}
                  <EmailText email={email} />
                </>
              ) : null}
            </p>
          </div>
        </div>
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
      <td className="py-3 pr-4 whitespace-nowrap">{formatDate(u.createdAt)}</td>
      <td className="py-3 pr-4 whitespace-nowrap">
        {u.lastLogin ? formatDateTime(u.lastLogin) : 'Never'}
      </td>
      <td className="py-3 pr-4">
        {/* Whether 2FA is asked for, and whether the customer has it: one column. */}
        <div className="flex flex-col items-start gap-2">
          <Switch
            checked={u.twoFactorRequired}
            disabled={requiredPending}
            onCheckedChange={(checked) => onToggleRequired(u, checked)}
            aria-label={`2FA required for ${name}`}
          />
          <Badge variant={u.twoFactorEnabled ? 'success' : 'outline'} className="whitespace-nowrap">
            {u.twoFactorEnabled ? '2FA Enabled' : '2FA Disabled'}
          </Badge>
        </div>
      </td>
      <td className="py-3">
        {/* One button to a line, all as wide as the widest, each label on one line. */}
        <div className="flex w-max flex-col items-stretch gap-2 [&_button]:whitespace-nowrap">
          <Button size="sm" variant="outline" onClick={() => onReset({ id: u.id, name })}>
            Reset 2FA
          </Button>
          <SecurityActivityButton user={{ id: u.id, name }} />
          {u.frozen ? <UnfreezeReview user={{ id: u.id, name }} /> : null}
          {u.twoFactorEnabled ? (
            <Button
              size="sm"
              variant="danger"
              disabled={disablePending}
              onClick={() => onDisable(u)}
              aria-label={`Disable 2FA for ${name}`}
            >
              Disable 2FA
            </Button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
