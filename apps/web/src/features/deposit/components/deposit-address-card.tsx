import { networkLabel, type TDepositAddress } from '@coffer/shared';
import { AssetLogo } from '@web/components/ui/asset-logo';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Dialog, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { QrCode } from '@web/components/ui/qr-code';
import { AlertTriangle, Check, Copy, QrCode as QrIcon } from 'lucide-react';

/** One deposit address: what to send to it, the address, copy and a QR code. */
export function DepositAddressCard({
  address,
  copied,
  onCopy,
}: {
  address: TDepositAddress;
  copied: boolean;
  onCopy: () => void;
}) {
  const symbol = address.assetSymbol.toUpperCase();
  const network = networkLabel(address.network);
  const headingId = `deposit-${address.id}`;

  return (
    <Card className="flex h-full flex-col" aria-labelledby={headingId} role="group">
      <CardContent className="flex flex-1 flex-col gap-4 pt-5">
        <div className="flex items-center gap-3">
          <AssetLogo symbol={symbol} />
          <div className="min-w-0">
            <h2 id={headingId} className="font-semibold text-fg">
              {symbol}
            </h2>
            <p className="text-sm text-muted">{network}</p>
          </div>
        </div>
        <p
          translate="no"
          className="wrap-anywhere rounded-md border border-border bg-surface-2 p-3 font-mono text-sm text-fg"
        >
          {address.address}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={onCopy} aria-label={`Copy ${symbol} ${network} address`}>
            {copied ? (
              <Check className="h-4 w-4" aria-hidden />
            ) : (
              <Copy className="h-4 w-4" aria-hidden />
            )}
            {copied ? 'Copied!' : 'Copy'}
          </Button>
          <Dialog>
            <DialogTrigger asChild>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Show QR code of the ${symbol} ${network} address`}
              >
                <QrIcon className="h-4 w-4" aria-hidden />
                QR code
              </Button>
            </DialogTrigger>
            <DialogContent
              title={`${symbol} deposit address`}
              description={`Send only ${symbol} (${network}) to this address.`}
              className="max-w-sm"
            >
              <div className="flex flex-col items-center gap-3">
                <QrCode
                  value={address.address}
                  label={`QR code of your ${symbol} ${network} deposit address`}
                  failedText="The QR code could not be drawn. Copy the address instead."
                />
                <p
                  translate="no"
                  className="wrap-anywhere text-center font-mono text-xs text-muted"
                >
                  {address.address}
                </p>
              </div>
            </DialogContent>
          </Dialog>
        </div>
        <p className="mt-auto flex items-start gap-2 text-sm text-muted">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-warning" aria-hidden />
          <span>
            Send only {symbol} ({network}) to this address. Any other asset sent here may be lost
            for good.
          </span>
        </p>
      </CardContent>
    </Card>
  );
}
