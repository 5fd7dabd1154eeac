import { ADMIN_WALLET_MSG, type TAdminDepositAddress } from '@coffer/shared';
import { Pencil } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { CopyValueButton } from '../../../components/admin/copy-value-button';
import { STACKED } from '../../../components/admin/stacked-table';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { errorMessage } from '../../../lib/api-client';
import { useUserDepositAddresses } from '../api/get-user-deposit-addresses';
import { useUpdateDepositAddress } from '../api/update-deposit-address';

function AddressEditor({ row, onDone }: { row: TAdminDepositAddress; onDone: () => void }) {
  const id = useId();
  const update = useUpdateDepositAddress();
  const [address, setAddress] = useState(row.address);
  const [isActive, setIsActive] = useState(row.isActive);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (address.trim() === '') {
      setError(ADMIN_WALLET_MSG.addressEmpty);
      return;
    }
    setError(null);
    try {
      await update.mutateAsync({ id: row.id, body: { address: address.trim(), isActive } });
      toast.success(ADMIN_WALLET_MSG.depositAddressUpdated);
      onDone();
    } catch (err) {
      const message = errorMessage(err, ADMIN_WALLET_MSG.updateDepositAddressFailed);
      setError(message);
      toast.error(ADMIN_WALLET_MSG.updateDepositAddressFailed, { description: message });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="w-full space-y-2">
      <Label htmlFor={`${id}-address`}>
        {row.assetSymbol} deposit address ({row.network})
      </Label>
      <Input
        id={`${id}-address`}
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        className="font-mono"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <div className="flex items-center gap-2">
        <Switch id={`${id}-active`} checked={isActive} onCheckedChange={setIsActive} />
        <Label htmlFor={`${id}-active`}>Active (shown to the customer)</Label>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="outline" size="sm" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** admin.md §2.3: the picked customer's deposit addresses, each editable. */
export function UserDepositAddressesTable({ userId }: { userId: string }) {
  const addresses = useUserDepositAddresses(userId);
  const [editing, setEditing] = useState<string | null>(null);

  useEffect(() => {
    if (addresses.isError) {
      toast.error(ADMIN_WALLET_MSG.fetchUserAddressesFailed, {
        description: addresses.error.message,
      });
    }
  }, [addresses.isError, addresses.error]);

  let body: ReactNode;
  if (addresses.isPending) {
    body = (
      <div className="flex justify-center py-8">
        <Spinner className="h-6 w-6" label="Loading deposit addresses" />
      </div>
    );
  } else if (addresses.isError) {
    body = (
      <div role="alert" className="space-y-3 py-4 text-sm">
        <p className="text-danger">
          {ADMIN_WALLET_MSG.fetchUserAddressesFailed}: {addresses.error.message}
        </p>
        <Button variant="outline" size="sm" onClick={() => void addresses.refetch()}>
          Retry
        </Button>
      </div>
    );
  } else if (addresses.data.addresses.length === 0) {
    body = (
      <p className="py-6 text-center text-sm text-muted">{ADMIN_WALLET_MSG.noUserAddresses}</p>
    );
  } else {
    body = (
      <table className={STACKED.table}>
        <thead className={STACKED.head}>
          <tr>
            <th className={STACKED.headCell}>Asset</th>
            <th className={STACKED.headCell}>Network</th>
            <th className={STACKED.headCell}>Address</th>
            <th className={STACKED.headCell}>Status</th>
            <th className={STACKED.headCell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className={STACKED.body}>
          {addresses.data.addresses.map((a) => (
            <tr key={a.id} className={STACKED.row}>
              <td data-label="Asset" className={`${STACKED.cell} font-semibold`}>
                {a.assetSymbol}
              </td>
              <td data-label="Network" className={STACKED.cell}>
                {a.network}
              </td>
              {editing === a.id ? (
                <td data-label="Address" className={STACKED.wideCell} colSpan={3}>
                  <AddressEditor row={a} onDone={() => setEditing(null)} />
                </td>
              ) : (
                <>
                  <td data-label="Address" className={STACKED.cell}>
                    <span className="flex min-w-0 items-center gap-1">
                      <span
                        translate="no"
                        className="max-w-[14rem] truncate font-mono text-xs"
                        title={a.address}
                      >
                        {a.address}
                      </span>
                      <CopyValueButton value={a.address} label={`Copy ${a.assetSymbol} address`} />
                    </span>
                  </td>
                  <td data-label="Status" className={STACKED.cell}>
                    <Badge variant={a.isActive ? 'success' : 'secondary'}>
                      {a.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                  </td>
                  <td className={STACKED.wideCell}>
                    <div className="flex md:justify-end">
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={editing !== null}
                        onClick={() => setEditing(a.id)}
                        aria-label={`Edit ${a.assetSymbol} ${a.network} deposit address`}
                      >
                        <Pencil className="h-3.5 w-3.5" aria-hidden />
                        Edit
                      </Button>
                    </div>
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Deposit Addresses</CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
