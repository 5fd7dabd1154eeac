import { ADMIN_WALLET_MSG, networkLabel, type TAdminDepositAddress } from '@coffer/shared';
import { ActiveBadge } from '@web/components/admin/active-badge';
import { CopyableAddress } from '@web/components/admin/copyable-address';
import { EditButton } from '@web/components/admin/edit-button';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { STACKED } from '@web/components/admin/stacked-table';
import { ActionsCell, StackedCell, StackedTable } from '@web/components/admin/stacked-table-parts';
import { useCan } from '@web/lib/staff';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useUserDepositAddresses } from '../api/get-user-deposit-addresses';
import { useUpdateDepositAddress } from '../api/update-deposit-address';
import { AddressEditForm } from './address-edit-form';
import { TableCard } from './table-card';

function AddressEditor({ row, onDone }: { row: TAdminDepositAddress; onDone: () => void }) {
  const update = useUpdateDepositAddress();
  return (
    <AddressEditForm
      label={`${row.assetSymbol} deposit address (${networkLabel(row.network)})`}
      initial={row.address}
      active={{ label: 'Active (shown to the customer)', initial: row.isActive }}
      save={(address, isActive, stepUp) =>
        update.mutateAsync({ id: row.id, body: { address, isActive, stepUp } })
      }
      describe={(address) =>
        `Propose ${address} as this ${row.assetSymbol} deposit address: it applies when another staff member approves it.`
      }
      pending={update.isPending}
      saveText="Save"
      failedText={ADMIN_WALLET_MSG.updateDepositAddressFailed}
      onDone={onDone}
    />
  );
}

/** the picked customer's deposit addresses, each editable by a role that proposes money changes. */
export function UserDepositAddressesTable({ userId }: { userId: string }) {
  const addresses = useUserDepositAddresses(userId);
  const [editing, setEditing] = useState<string | null>(null);
  const mayPropose = useCan()('money.propose');

  useEffect(() => {
    if (addresses.isError) {
      toast.error(ADMIN_WALLET_MSG.fetchUserAddressesFailed, {
        description: addresses.error.message,
      });
    }
  }, [addresses.isError, addresses.error]);

  let body: ReactNode;
  if (addresses.isPending) {
    body = <LoadingState label="Loading deposit addresses" className="py-8" />;
  } else if (addresses.isError) {
    body = (
      <LoadError
        message={`${ADMIN_WALLET_MSG.fetchUserAddressesFailed}: ${addresses.error.message}`}
        onRetry={() => void addresses.refetch()}
        className="py-4"
      />
    );
  } else if (addresses.data.addresses.length === 0) {
    body = (
      <p className="py-6 text-center text-sm text-muted">{ADMIN_WALLET_MSG.noUserAddresses}</p>
    );
  } else {
    body = (
      <StackedTable columns={['Asset', 'Network', 'Address', 'Status']}>
        {addresses.data.addresses.map((a) => (
          <tr key={a.id} className={STACKED.row}>
            <StackedCell label="Asset" className="font-semibold">
              {a.assetSymbol}
            </StackedCell>
            <StackedCell label="Network">{networkLabel(a.network)}</StackedCell>
            {editing === a.id ? (
              <td data-label="Address" className={STACKED.wideCell} colSpan={3}>
                <AddressEditor row={a} onDone={() => setEditing(null)} />
              </td>
            ) : (
              <>
                <StackedCell label="Address">
                  <CopyableAddress
                    address={a.address}
                    symbol={a.assetSymbol}
                    className="max-w-[14rem]"
                  />
                </StackedCell>
                <StackedCell label="Status">
                  <ActiveBadge active={a.isActive} />
                </StackedCell>
                <ActionsCell>
                  {mayPropose ? (
                    <EditButton
                      label={`Edit ${a.assetSymbol} ${networkLabel(a.network)} deposit address`}
                      disabled={editing !== null}
                      onClick={() => setEditing(a.id)}
                    >
                      Edit
                    </EditButton>
                  ) : null}
                </ActionsCell>
              </>
            )}
          </tr>
        ))}
      </StackedTable>
    );
  }

  return <TableCard title="Deposit Addresses">{body}</TableCard>;
}
