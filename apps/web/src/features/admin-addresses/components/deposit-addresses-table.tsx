import { formatDate, networkLabel, type TAdminDepositAddress } from '@coffer/shared';
import { ActiveBadge } from '@web/components/admin/active-badge';
import { CopyableAddress } from '@web/components/admin/copyable-address';
import { EditButton } from '@web/components/admin/edit-button';
import { STACKED } from '@web/components/admin/stacked-table';
import { ActionsCell, StackedCell, StackedTable } from '@web/components/admin/stacked-table-parts';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-picker';
import { Button } from '@web/components/ui/button';
import { CustomerText } from '@web/components/ui/customer-text';
import { Trash2 } from 'lucide-react';

/**
 * Every address found, with Edit and Delete for a role that proposes money changes (none
 * given otherwise); says when the list holds only the newest.
 */
export function DepositAddressesTable({
  rows,
  total,
  onEdit,
  onDelete,
}: {
  rows: readonly TAdminDepositAddress[];
  /** How many match in all. */
  total: number;
  onEdit?: (row: TAdminDepositAddress) => void;
  onDelete?: (row: TAdminDepositAddress) => void;
}) {
  return (
    <>
      <StackedTable columns={['Customer', 'Asset', 'Network', 'Address', 'Status', 'Created']}>
        {rows.map((a) => {
          const name = userDisplayName(a.user);
          return (
            <tr key={a.id} className={STACKED.row}>
              <StackedCell label="Customer">
                <span className="min-w-0 text-right md:text-left">
                  <CustomerText text={name} truncate className="font-medium text-fg" />
                  {userEmailBesideName(a.user) ? (
                    <CustomerText text={a.user.email} truncate className="text-xs text-muted" />
                  ) : null}
                </span>
              </StackedCell>
              <StackedCell label="Asset" className="font-semibold">
                {a.assetSymbol}
              </StackedCell>
              <StackedCell label="Network">{networkLabel(a.network)}</StackedCell>
              <StackedCell label="Address">
                <CopyableAddress
                  address={a.address}
                  symbol={a.assetSymbol}
                  className="max-w-[11rem]"
                />
              </StackedCell>
              <StackedCell label="Status">
                <ActiveBadge active={a.isActive} />
              </StackedCell>
              <StackedCell label="Created" className="whitespace-nowrap">
                <time dateTime={a.createdAt}>{formatDate(a.createdAt)}</time>
              </StackedCell>
              <ActionsCell>
                {onEdit ? (
                  <EditButton
                    label={`Edit ${a.assetSymbol} address of ${name}`}
                    onClick={() => onEdit(a)}
                  >
                    Edit
                  </EditButton>
                ) : null}
                {onDelete ? (
                  <Button
                    variant="outline"
                    size="sm"
                    className="text-danger"
                    onClick={() => onDelete(a)}
                    aria-label={`Delete ${a.assetSymbol} address of ${name}`}
                  >
                    <Trash2 className="h-3.5 w-3.5" aria-hidden />
                    Delete
                  </Button>
                ) : null}
              </ActionsCell>
            </tr>
          );
        })}
      </StackedTable>
      {total > rows.length ? (
        <p className="pt-3 text-sm text-muted">
          Showing the newest {rows.length} of {total}. Search to narrow the list.
        </p>
      ) : null}
    </>
  );
}
