import {
  ASSETS,
  DEPOSIT_REQUEST_MSG,
  depositAssetTitle,
  networkLabel,
  type TRequestableAsset,
} from '@coffer/shared';
import { AssetLogo } from '@web/components/ui/asset-logo';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { RelativeTime } from '@web/components/ui/relative-time';
import { errorMessage } from '@web/lib/api-client';
import { Clock, Send } from 'lucide-react';
import { toast } from 'sonner';
import { useRequestDepositAddress } from '../api/request-deposit-address';

/**
 * The assets Coffer has no address for on this installation (their chain is not watched):
 * the customer asks, staff add the address, and the customer is e-mailed when it is ready.
 */
export function RequestAddresses({ items }: { items: readonly TRequestableAsset[] }) {
  const ask = useRequestDepositAddress();

  async function request(item: TRequestableAsset) {
    try {
      await ask.mutateAsync(item.assetId);
      toast.success('Address requested', {
        description: `We'll e-mail you when your ${depositAssetTitle(item.assetId)} deposit address is ready.`,
      });
    } catch (err) {
      toast.error('Error', { description: errorMessage(err, DEPOSIT_REQUEST_MSG.failed) });
    }
  }

  return (
    <section aria-labelledby="request-address-heading" className="space-y-3">
      <div className="space-y-1">
        <h2 id="request-address-heading" className="text-lg font-semibold text-fg">
          Request an address
        </h2>
        <p className="text-sm text-muted">
          These assets have no deposit address yet. Ask for one: our team adds it and we e-mail you
          when it is ready.
        </p>
      </div>
      <ul className="grid gap-4 md:grid-cols-2">
        {items.map((item) => (
          <li key={item.assetId}>
            <RequestItem
              item={item}
              pending={ask.isPending && ask.variables === item.assetId}
              onRequest={() => void request(item)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

function RequestItem({
  item,
  pending,
  onRequest,
}: {
  item: TRequestableAsset;
  pending: boolean;
  onRequest: () => void;
}) {
  const symbol = ASSETS[item.assetId].symbol;
  const network = networkLabel(item.network);
  const title = depositAssetTitle(item.assetId);
  return (
    <Card className="h-full">
      <CardContent className="flex h-full flex-col gap-4 pt-5">
        <div className="flex items-center gap-3">
          <AssetLogo symbol={symbol} />
          <div className="min-w-0">
            <h3 className="font-semibold text-fg">{symbol}</h3>
            <p className="text-sm text-muted">{network}</p>
          </div>
        </div>
        {item.request ? (
          <p role="status" className="mt-auto flex items-start gap-2 text-sm text-fg">
            <Clock className="mt-0.5 h-4 w-4 shrink-0 text-warning" aria-hidden />
            <span>
              Requested <RelativeTime iso={item.request.requestedAt} />. Waiting for our team to add
              your {title} address; we'll e-mail you when it is ready.
            </span>
          </p>
        ) : (
          <div className="mt-auto flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-muted">No address yet.</p>
            <Button
              size="sm"
              onClick={onRequest}
              disabled={pending}
              aria-label={`Request a ${title} deposit address`}
            >
              <Send className="h-4 w-4" aria-hidden />
              {pending ? 'Requesting...' : 'Request an address'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
