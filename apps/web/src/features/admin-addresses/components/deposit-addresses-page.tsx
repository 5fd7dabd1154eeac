import {
  ADMIN_WALLET_MSG,
  addressFieldsOf,
  type TAdminAddressRequest,
  type TAdminDepositAddress,
} from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Dialog } from '@web/components/ui/dialog';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { cn } from '@web/lib/cn';
import { adminKeys } from '@web/lib/query-keys';
import { useRealtime } from '@web/lib/realtime';
import { useCan } from '@web/lib/staff';
import { useDebounced } from '@web/lib/use-debounced';
import { Plus, RefreshCw, Search } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useAddressRequests } from '../api/get-address-requests';
import { useDepositAddresses } from '../api/get-deposit-addresses';
import { AddressDialog } from './address-dialog';
import { AddressRequestsCard } from './address-requests-card';
import { DeleteAddressDialog } from './delete-address-dialog';
import { DepositAddressesTable } from './deposit-addresses-table';

type Open =
  | { kind: 'add' }
  | { kind: 'assign'; request: TAdminAddressRequest }
  | { kind: 'edit' | 'delete'; row: TAdminDepositAddress }
  | null;

/** /dashboard/admin/addresses. */
export default function DepositAddressesPage() {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const addresses = useDepositAddresses(q);
  const requests = useAddressRequests();
  const [open, setOpen] = useState<Open>(null);
  const queryClient = useQueryClient();
  // Adding, editing and deleting are proposals of a role that proposes money changes.
  const mayPropose = useCan()('money.propose');

  // Live: a customer's new request, and any admin's change to an address, here or elsewhere.
  useRealtime(['addresses.changed'], () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.depositAddresses() });
  });

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
    body = (
      <DepositAddressesTable
        rows={addresses.data.addresses}
        total={addresses.data.total}
        onEdit={mayPropose ? (row) => setOpen({ kind: 'edit', row }) : undefined}
        onDelete={mayPropose ? (row) => setOpen({ kind: 'delete', row }) : undefined}
      />
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
            onClick={() => {
              void addresses.refetch();
              void requests.refetch();
            }}
            disabled={addresses.isFetching}
          >
            <RefreshCw
              className={cn('h-4 w-4', addresses.isFetching && 'animate-spin')}
              aria-hidden
            />
            Refresh
          </Button>
          {mayPropose ? (
            <Button onClick={() => setOpen({ kind: 'add' })}>
              <Plus className="h-4 w-4" aria-hidden />
              Add Address
            </Button>
          ) : null}
        </div>
      </header>

      <AddressRequestsCard
        onAssign={mayPropose ? (request) => setOpen({ kind: 'assign', request }) : undefined}
      />

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
        {open?.kind === 'assign' ? (
          <AddressDialog
            key={open.request.id}
            editing={null}
            preset={{ user: open.request.user, ...addressFieldsOf(open.request.assetId) }}
            onDone={close}
          />
        ) : null}
        {open?.kind === 'edit' ? (
          <AddressDialog key={open.row.id} editing={open.row} onDone={close} />
        ) : null}
        {open?.kind === 'delete' ? <DeleteAddressDialog row={open.row} onDone={close} /> : null}
      </Dialog>
    </div>
  );
}
