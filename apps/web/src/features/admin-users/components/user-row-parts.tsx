import { formatDate, formatDateTime, type TAdminUserRow } from '@coffer/shared';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-picker';
import { Badge } from '@web/components/ui/badge';
import { CustomerText } from '@web/components/ui/customer-text';
import { EmailText } from '@web/components/ui/email-text';
import { RowMenu } from '@web/components/ui/row-menu';
import { Switch } from '@web/components/ui/switch';
import { useCan } from '@web/lib/staff';
import { UnfreezeReview } from './unfreeze-review';

/** A customer as the dialogs name them: their name, or their e-mail when they have none. */
export type NamedUser = { id: string; name: string };

/** What staff can do from a customer's row or card; the page owns the dialogs these open. */
export type RowActions = {
  /** A 2FA requirement change is on its way: the switches wait for it. */
  requiredPending: boolean;
  /** A 2FA disable is on its way: Disable 2FA waits for it. */
  disablePending: boolean;
  onToggleRequired: (user: TAdminUserRow, required: boolean) => void;
  onReset: (user: NamedUser) => void;
  onDisable: (user: TAdminUserRow) => void;
  onActivity: (user: NamedUser) => void;
};

export const joinedText = (iso: string) => formatDate(iso);
export const lastLoginText = (iso: string | null) => (iso ? formatDateTime(iso) : 'Never');

/** The customer's initial, name, short id and e-mail. */
export function UserIdentity({ user: u }: { user: TAdminUserRow }) {
  const name = userDisplayName(u);
  // Said once: a customer without a name is named by their e-mail already.
  const email = userEmailBesideName(u);
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span
        aria-hidden
        className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-surface-2 font-semibold text-primary"
      >
        {name.charAt(0).toUpperCase()}
      </span>
      <div className="min-w-0">
        <p className="break-words font-medium text-fg">
          {email ? <CustomerText text={name} /> : <EmailText email={name} />}
        </p>
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
  );
}

export const namedUser = (u: TAdminUserRow): NamedUser => ({ id: u.id, name: userDisplayName(u) });

/** The 2FA Required switch of a customer. */
export function RequiredSwitch({ user: u, ...actions }: { user: TAdminUserRow } & RowActions) {
  // Only compliance changes a customer's factors; the others see the state, switched off.
  const mayProtect = useCan()('customers.protect');
  return (
    <Switch
      checked={u.twoFactorRequired}
      disabled={actions.requiredPending || !mayProtect}
      onCheckedChange={(checked) => actions.onToggleRequired(u, checked)}
      aria-label={`2FA required for ${userDisplayName(u)}`}
    />
  );
}

/**
 * A customer's state (2FA on or off, a freeze and its review) and the menu of what staff
 * may do: each item opens a dialog naming the customer before anything changes.
 */
export function UserActions({ user: u, ...actions }: { user: TAdminUserRow } & RowActions) {
  const named = namedUser(u);
  const mayProtect = useCan()('customers.protect');
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Badge variant={u.twoFactorEnabled ? 'success' : 'outline'}>
        {u.twoFactorEnabled ? '2FA Enabled' : '2FA Disabled'}
      </Badge>
      {u.frozen ? <UnfreezeReview user={named} /> : null}
      <RowMenu
        label={`Actions for ${u.email}`}
        items={[
          { label: 'Security activity', onSelect: () => actions.onActivity(named) },
          ...(mayProtect ? [{ label: 'Reset 2FA', onSelect: () => actions.onReset(named) }] : []),
          ...(u.twoFactorEnabled && mayProtect
            ? [
                {
                  label: 'Disable 2FA',
                  onSelect: () => actions.onDisable(u),
                  danger: true,
                  disabled: actions.disablePending,
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}
