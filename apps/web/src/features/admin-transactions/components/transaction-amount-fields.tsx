import { ALL_ASSET_IDS, ASSETS, type TAnyAssetId, ZAnyAssetId } from '@coffer/shared';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { SELECT_CLASS } from '@web/components/ui/select';
import { usePrices } from '@web/lib/money/get-prices';
import type { UseFormReturn } from 'react-hook-form';
import { audFromUsd, cryptoFromUsd, priceFor, usdFromAud, usdFromCrypto } from './amounts';
import type { TTransactionFields } from './transaction-fields';

/**
 * The asset and the three amounts of a transaction: typing one fills in the others at the
 * live price (a bank transfer has no crypto amount, so only USD and AUD follow each other).
 */
export function TransactionAmountFields({
  form,
  field,
  locked,
}: {
  form: UseFormReturn<TTransactionFields>;
  field: (name: string) => string;
  locked: boolean;
}) {
  const prices = usePrices();
  const f = form.watch();
  const bank = f.type === 'bank_transfer';
  const price = (assetId: TAnyAssetId) =>
    priceFor(assetId, prices.data?.prices.find((p) => p.assetId === assetId)?.priceUsd);
  const set = (a: Pick<TTransactionFields, 'cryptoAmount' | 'usdAmount' | 'audAmount'>) => {
    form.setValue('cryptoAmount', a.cryptoAmount);
    form.setValue('usdAmount', a.usdAmount);
    form.setValue('audAmount', a.audAmount);
  };

  function onCrypto(value: string) {
    const usd = usdFromCrypto(f.assetId, value, price(f.assetId));
    set({ cryptoAmount: value, usdAmount: usd, audAmount: audFromUsd(usd) });
  }
  function onUsd(value: string) {
    set({
      usdAmount: value,
      audAmount: audFromUsd(value),
      cryptoAmount: bank ? f.cryptoAmount : cryptoFromUsd(f.assetId, value, price(f.assetId)),
    });
  }
  function onAud(value: string) {
    const usd = usdFromAud(value);
    set({
      audAmount: value,
      usdAmount: usd,
      cryptoAmount: bank ? f.cryptoAmount : cryptoFromUsd(f.assetId, usd, price(f.assetId)),
    });
  }
  function onAsset(value: string) {
    const parsed = ZAnyAssetId.safeParse(value);
    if (!parsed.success) return;
    const usd = usdFromCrypto(parsed.data, f.cryptoAmount, price(parsed.data));
    form.setValue('assetId', parsed.data);
    set({
      cryptoAmount: f.cryptoAmount,
      usdAmount: usd || f.usdAmount,
      audAmount: usd ? audFromUsd(usd) : f.audAmount,
    });
  }

  const cryptoDigits = Math.min(6, ASSETS[f.assetId].decimals);
  return (
    <>
      {bank ? null : (
        <div className="space-y-1.5">
          <Label htmlFor={field('asset')}>Asset</Label>
          <select
            id={field('asset')}
            className={SELECT_CLASS}
            value={f.assetId}
            disabled={locked}
            onChange={(e) => onAsset(e.target.value)}
          >
            {ALL_ASSET_IDS.map((a) => (
              <option key={a} value={a}>
                {ASSETS[a].label}
              </option>
            ))}
          </select>
        </div>
      )}
      {bank ? null : (
        <div className="space-y-1.5">
          <Label htmlFor={field('crypto')}>Crypto amount ({ASSETS[f.assetId].symbol})</Label>
          <Input
            id={field('crypto')}
            inputMode="decimal"
            autoComplete="off"
            placeholder={(0).toFixed(cryptoDigits)}
            value={f.cryptoAmount}
            disabled={locked}
            onChange={(e) => onCrypto(e.target.value)}
          />
        </div>
      )}
      <div className="space-y-1.5">
        <Label htmlFor={field('usd')}>USD amount</Label>
        <Input
          id={field('usd')}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={f.usdAmount}
          disabled={locked}
          onChange={(e) => onUsd(e.target.value)}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={field('aud')}>AUD amount</Label>
        <Input
          id={field('aud')}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={f.audAmount}
          disabled={locked}
          onChange={(e) => onAud(e.target.value)}
        />
        <p className="text-xs text-muted">At 1.52 AUD per USD.</p>
      </div>
    </>
  );
}
