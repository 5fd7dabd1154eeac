import type { TAdminDirectoryUser } from '@coffer/shared';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-picker';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';

const numberFormat = new Intl.NumberFormat('en-US');

/** The newest customers who have no phrase yet, and how many there are in all. */
export function UsersWithoutPhrase({
  users,
  total,
}: {
  users: readonly TAdminDirectoryUser[];
  total: number;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Users Without Phrases</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-sm text-muted">
          Coffer creates a customer's phrase while they secure their account; it cannot be made for
          them.
        </p>
        {users.length === 0 ? (
          <p className="py-4 text-center text-muted">Every user has a phrase.</p>
        ) : (
          <>
            <ul className="divide-y divide-border">
              {users.map((u) => (
                <li key={u.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="min-w-0">
                    <span className="block font-medium text-fg">{userDisplayName(u)}</span>
                    {userEmailBesideName(u) ? (
                      <span className="block text-xs text-muted">{u.email}</span>
                    ) : null}
                  </span>
                  <span className="text-sm text-muted">No phrase yet</span>
                </li>
              ))}
            </ul>
            {total > users.length ? (
              <p className="text-xs text-muted">
                Showing the newest {users.length} of {numberFormat.format(total)}.
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
