import { ASSETS, depositAssetTitle, networkLabel, type TAdminAddressRequest } from '@coffer/shared';
import { LoadError } from '@web/components/admin/load-states';
import { STACKED } from '@web/components/admin/stacked-table';
import { ActionsCell, StackedCell, StackedTable } from '@web/components/admin/stacked-table-parts';
import { userDisplayName } from '@web/components/admin/user-picker';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { CustomerText } from '@web/components/ui/customer-text';
import { formatDistanceToNow } from 'date-fns';
import { MapPinPlus } from 'lucide-react';
import { useAddressRequests } from '../api/get-address-requests';

/**
 * Customers waiting for a deposit address on a chain Coffer does not watch, oldest first.
 * "Assign address" opens the add dialog filled in; adding the address fulfils the request
 * and mails the customer. Shown only while someone waits (or the list cannot be read).
 */
export function AddressRequestsCard({
  onAssign,
}: {
  /** Absent for a role that does not propose addresses: the requests are only listed. */
  onAssign?: (request: TAdminAddressRequest) => void;
}) {
  const requests = useAddressRequests();
  if (requests.isPending || (requests.data && requests.data.requests.length === 0)) return null;

  return (
    <Card aria-labelledby="address-requests-title" role="region">
      <CardHeader>
        <CardTitle id="address-requests-title">Address requests</CardTitle>
        <CardDescription>
          Customers waiting for a deposit address, oldest first. Adding the address e-mails the
          customer that it is ready.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {requests.data ? (
          <StackedTable columns={['Customer', 'Asset', 'Waiting']}>
            {requests.data.requests.map((r) => (
              <RequestRow
                key={r.id}
                request={r}
                onAssign={onAssign ? () => onAssign(r) : undefined}
              />
            ))}
          </StackedTable>
        ) : (
          <LoadError
            message="Failed to load address requests. Please try again."
            onRetry={() => void requests.refetch()}
            className="py-4"
          />
        )}
      </CardContent>
    </Card>
  );
}

function RequestRow({
  request,
  onAssign,
}: {
  request: TAdminAddressRequest;
  onAssign: (() => void) | undefined;
}) {
  const name = userDisplayName(request.user);
  const title = depositAssetTitle(request.assetId);
  return (
    <tr className={STACKED.row}>
      <StackedCell label="Customer">
        <span className="min-w-0 text-right md:text-left">
          <CustomerText text={name} truncate className="font-medium text-fg" />
          {name !== request.user.email ? (
            <CustomerText text={request.user.email} truncate className="text-xs text-muted" />
          ) : null}
        </span>
      </StackedCell>
      <StackedCell label="Asset">
        <span className="text-right md:text-left">
          <span className="block font-semibold">{ASSETS[request.assetId].symbol}</span>
          <span className="block text-xs text-muted">{networkLabel(request.network)}</span>
        </span>
      </StackedCell>
      <StackedCell label="Waiting" className="whitespace-nowrap">
        <time dateTime={request.requestedAt}>
          {formatDistanceToNow(new Date(request.requestedAt))}
        </time>
      </StackedCell>
      <ActionsCell>
        {onAssign ? (
          <Button size="sm" onClick={onAssign} aria-label={`Assign a ${title} address to ${name}`}>
            <MapPinPlus className="h-3.5 w-3.5" aria-hidden />
            Assign address
          </Button>
        ) : null}
      </ActionsCell>
    </tr>
  );
}
