import { networkLabel } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { AssetLogo } from '@web/components/ui/asset-logo';
import { Button } from '@web/components/ui/button';
import { FieldError } from '@web/components/ui/field-error';
import { cn } from '@web/lib/cn';
import { Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { cryptoFigure, type TFundingOption } from './funding';

/** The network beside USDT, whose two wallets share a symbol. */
function optionName(option: TFundingOption): string {
  const { asset } = option;
  return asset.symbol === 'USDT'
    ? `${asset.symbol} (${networkLabel(asset.network)})`
    : `${asset.symbol} · ${asset.name}`;
}

function OptionFigures({ option }: { option: TFundingOption }) {
  const available = `${cryptoFigure(option.available, option.asset)} available`;
  if (option.need === null) return <span className="block text-sm text-muted">{available}</span>;
  const takes = cryptoFigure(option.need, option.asset);
  if (!option.enough) {
    return (
      <span className="block text-sm">
        <span className="font-medium text-danger">Not enough: takes {takes}</span>
        <span className="text-muted">, {available}</span>
      </span>
    );
  }
  return (
    <span className="block text-sm text-muted">
      Takes <span className="font-medium text-fg tabular-nums">{takes}</span> · {available}
    </span>
  );
}

/**
 * "Pay from": the assets with an available balance, each with what the AUD amount would
 * take from it. One whose balance is short is shown and disabled, with the figures, so the
 * customer sees why. With nothing available there is nothing to choose: the customer is
 * told a bank transfer is paid from a balance and where to make a deposit.
 */
export function PayFrom({
  options,
  loading,
  value,
  onChange,
  error,
}: {
  options: readonly TFundingOption[];
  loading: boolean;
  value: string;
  onChange: (assetId: string) => void;
  error?: string;
}) {
  return (
    <fieldset className="space-y-3" aria-describedby={error ? 'bank-assetId-error' : undefined}>
      <legend className="text-sm font-medium text-fg">Pay from</legend>
      {loading ? (
        <p className="text-sm text-muted">Loading your balances...</p>
      ) : options.length === 0 ? (
        <Alert variant="warning" title="Nothing to pay from">
          <p>
            A bank transfer is paid out of one of your balances, and you have no balance available
            to pay it from. Deposit crypto first, then request the transfer.
          </p>
          <Button asChild size="sm" variant="outline" className="mt-2">
            <Link to="/dashboard/deposit">
              <Wallet className="h-4 w-4" aria-hidden />
              Make a Deposit
            </Link>
          </Button>
        </Alert>
      ) : (
        <div className="grid gap-2">
          {options.map((option) => {
            const id = `bank-asset-${option.asset.id}`;
            const checked = value === option.asset.id;
            return (
              <label
                key={option.asset.id}
                htmlFor={id}
                className={cn(
                  'flex items-center gap-3 rounded-lg border p-3',
                  option.enough
                    ? 'cursor-pointer border-border hover:bg-surface-2'
                    : 'cursor-not-allowed border-dashed border-border',
                  checked && option.enough && 'border-primary bg-surface-2',
                )}
              >
                <input
                  id={id}
                  type="radio"
                  name="bank-asset"
                  value={option.asset.id}
                  checked={checked}
                  disabled={!option.enough}
                  onChange={() => onChange(option.asset.id)}
                  className="h-4 w-4 shrink-0 accent-primary"
                />
                <AssetLogo symbol={option.asset.symbol} size="sm" />
                <span className="min-w-0 flex-1">
                  <span className="block font-medium text-fg">{optionName(option)}</span>
                  <OptionFigures option={option} />
                </span>
              </label>
            );
          })}
        </div>
      )}
      <FieldError id="bank-assetId-error" message={error} />
    </fieldset>
  );
}
