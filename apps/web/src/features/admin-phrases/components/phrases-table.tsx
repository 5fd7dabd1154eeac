import { formatDateTime, type TAdminPhraseRow } from '@coffer/shared';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-picker';
import { Badge } from '@web/components/ui/badge';
import { ScrollRegion } from '@web/components/ui/scroll-region';

/** One page of phrase metadata: whose, which type, since when; never a phrase. */
export function PhrasesTable({ phrases }: { phrases: readonly TAdminPhraseRow[] }) {
  return (
    <ScrollRegion label="Recovery phrases" bleed>
      <table className="w-full min-w-[440px] text-left text-sm">
        <caption className="sr-only">Recovery phrases</caption>
        <thead className="border-b border-border text-xs uppercase text-muted">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              User
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Type
            </th>
            <th scope="col" className="py-2 font-medium">
              Created
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {phrases.map((p) => (
            <tr key={p.userId}>
              <td className="py-3 pr-4">
                <p className="font-medium text-fg">{userDisplayName(p)}</p>
                {userEmailBesideName(p) ? <p className="text-xs text-muted">{p.email}</p> : null}
              </td>
              <td className="py-3 pr-4">
                <Badge variant={p.type === 'generated' ? 'secondary' : 'outline'}>
                  {p.type === 'generated' ? 'Generated' : 'Custom'}
                </Badge>
              </td>
              <td className="py-3 whitespace-nowrap">
                <time dateTime={p.createdAt}>{formatDateTime(p.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
