import { ADMIN_WALLET_MSG, type TAdminDepositAddress, type TStepUp } from '@coffer/shared';
import { ActiveBadge } from '@web/components/admin/active-badge';
import { CopyableAddress } from '@web/components/admin/copyable-address';
import { EditButton } from '@web/components/admin/edit-button';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { STACKED } from '@web/components/admin/stacked-table';
import { ActionsCell, StackedCell, StackedTable } from '@web/components/admin/stacked-table-parts';
import { userDisplayName } from '@web/components/admin/user-picker';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { useDebounced } from '@web/lib/use-debounced';
import { Plus, RefreshCw, Search, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useDeleteDepositAddress } from '../api/delete-deposit-address';
import { useDepositAddresses } from '../api/get-deposit-addresses';
import { AddressDialog } from './address-dialog';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function DeleteDialog({ row, onDone }: { row: TAdminDepositAddress; onDone: () => void }) {
  const remove = useDeleteDepositAddress();
  // Delete asks for the admin's fresh second factor (step-up) before anything is sent.
  const [asking, setAsking] = useState(false);
  async function confirm(stepUp: TStepUp) {
    await remove.mutateAsync({ id: row.id, stepUp });
    setAsking(false);
    toast.success(ADMIN_WALLET_MSG.addressDeleted, {
      description: `${row.assetSymbol} address of ${userDisplayName(row.user)} deleted.`,
    });
    onDone();
  }
  function failed(err: unknown) {
    setAsking(false);
    toast.error('Error', { description: errorMessage(err, ADMIN_WALLET_MSG.deleteAddressFailed) });
  }
  return (
    <DialogContent title="Delete Deposit Address" description={ADMIN_WALLET_MSG.deleteConfirm}>
      <StepUpDialog
        open={asking}
        title="Confirm the deletion"
        description={`Delete the ${row.assetSymbol} address of ${userDisplayName(row.user)}: deposits to it are no longer credited.`}
        confirmLabel="Confirm and delete"
        pendingLabel="Deleting..."
        danger
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <p className="break-all font-mono text-sm" translate="no">
        {row.address}
      </p>
      <p className="mt-1 text-sm text-muted">
        {row.assetSymbol} · {row.network} · {userDisplayName(row.user)}
      </p>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => setAsking(true)} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </DialogContent>
  );
}

type Open = { kind: 'add' } | { kind: 'edit' | 'delete'; row: TAdminDepositAddress } | null;

/** /dashboard/admin/addresses. */
export default function DepositAddressesPage() {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const addresses = useDepositAddresses(q);
  const [open, setOpen] = useState<Open>(null);

  useEffect(() => {
    if (addresses.isError) {
      toast.error('Error', { description: ADMIN_WALLET_MSG.loadAddressesFailed });
    }
  }, [addresses.isError]);

  let body: ReactNode;
  if (addresses.isPending) {
    body = <LoadingState label="Loading deposit addresses" className="py-10" />;
  } else if (addresses.isError && !addresses.data) {
    body = (
      <LoadError
        message={ADMIN_WALLET_MSG.loadAddressesFailed}
        onRetry={() => void addresses.refetch()}
        className="py-6"
      />
    );
  } else if (addresses.data.addresses.length === 0) {
    body = <p className="py-10 text-center text-sm text-muted">{ADMIN_WALLET_MSG.noAddresses}</p>;
  } else {
    const { addresses: rows, total } = addresses.data;
    body = (
      <>
        <StackedTable columns={['Customer', 'Asset', 'Network', 'Address', 'Status', 'Created']}>
          {rows.map((a) => {
            const name = userDisplayName(a.user);
            return (
              <tr key={a.id} className={STACKED.row}>
                <StackedCell label="Customer">
                  <span className="min-w-0 text-right md:text-left">
                    <span className="block truncate font-medium text-fg">{name}</span>
                    {name !== a.user.email ? (
                      <span className="block truncate text-xs text-muted">{a.user.email}</span>
                    ) : null}
                  </span>
                </StackedCell>
                <StackedCell label="Asset" className="font-semibold">
                  {a.assetSymbol}
                </StackedCell>
                <StackedCell label="Network">{a.network}</StackedCell>
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
                  <time dateTime={a.createdAt}>{dateFormat.format(new Date(a.createdAt))}</time>
                </StackedCell>
                <ActionsCell>
                  <EditButton
                    label={`Edit ${a.assetSymbol} address of ${name}`}
                    onClick={() => setOpen({ kind: 'edit', row: a })}
                  >
                    Edit
                  </EditButton>
                  <Button
                    variant="outline"
                    size="sm"
                    className="text-danger"
                    onClick={() => setOpen({ kind: 'delete', row: a })}
                    aria-label={`Delete ${a.assetSymbol} address of ${name}`}
                  >
                    <Trash2 className="h-3.5 w-3.5" aria-hidden />
                    Delete
                  </Button>
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

  const close = () => setOpen(null);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold text-fg">Deposit Addresses</h1>
          <p className="text-sm text-muted">
            The addresses customers see on their deposit page. Inactive addresses are hidden from
            them.
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            onClick={() => void addresses.refetch()}
            disabled={addresses.isFetching}
          >
            <RefreshCw
              className={cn('h-4 w-4', addresses.isFetching && 'animate-spin')}
              aria-hidden
            />
            Refresh
          </Button>
          <Button onClick={() => setOpen({ kind: 'add' })}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Address
          </Button>
        </div>
      </header>

      <Card>
        <CardContent className="space-y-4 pt-5">
          <div className="relative max-w-md">
            <Label htmlFor="address-search" className="sr-only">
              Search deposit addresses
            </Label>
            <Search
              className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
              aria-hidden
            />
            <Input
              id="address-search"
              type="search"
              className="pl-9"
              placeholder="Search by customer, address, asset or network"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          {body}
        </CardContent>
      </Card>

      <Dialog open={open !== null} onOpenChange={(isOpen) => (isOpen ? undefined : close())}>
        {open?.kind === 'add' ? <AddressDialog key="add" editing={null} onDone={close} /> : null}
        {open?.kind === 'edit' ? (
          <AddressDialog key={open.row.id} editing={open.row} onDone={close} />
        ) : null}
        {open?.kind === 'delete' ? <DeleteDialog row={open.row} onDone={close} /> : null}
      </Dialog>
    </div>
  );
}
