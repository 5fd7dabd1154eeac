import { STAFF_ROLE_DUTIES, STAFF_ROLE_LABELS, STAFF_ROLES, type TStaffRole } from '@coffer/shared';
import { FormMessage } from '@web/components/ui/form';
import { useId } from 'react';

/**
 * The roles to give, each with what it may do, in one group with one message under it
 * (at least one role).
 */
export function RoleCheckboxes({
  value,
  onChange,
}: {
  value: readonly TStaffRole[];
  onChange: (roles: TStaffRole[]) => void;
}) {
  const id = useId();
  const toggle = (role: TStaffRole, on: boolean) =>
    onChange(STAFF_ROLES.filter((r) => (r === role ? on : value.includes(r))));
  return (
    <fieldset className="space-y-2" aria-describedby={`${id}-error`}>
      <legend className="mb-1 text-sm font-medium text-fg">Roles</legend>
      <ul className="space-y-2">
        {STAFF_ROLES.map((role) => (
          <li key={role} className="flex items-start gap-3 rounded-lg border border-border p-3">
            <input
              type="checkbox"
              id={`${id}-${role}`}
              checked={value.includes(role)}
              onChange={(e) => toggle(role, e.target.checked)}
              aria-describedby={`${id}-${role}-duty`}
              className="mt-0.5 h-4 w-4 shrink-0 accent-primary"
            />
            <div className="min-w-0">
              <label htmlFor={`${id}-${role}`} className="text-sm font-medium text-fg">
                {STAFF_ROLE_LABELS[role]}
              </label>
              <p id={`${id}-${role}-duty`} className="text-xs text-muted">
                {STAFF_ROLE_DUTIES[role]}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <FormMessage name="roles" id={`${id}-error`} />
    </fieldset>
  );
}
