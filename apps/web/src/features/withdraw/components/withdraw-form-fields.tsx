import { CUSTOMER_ASSETS, formatAssetAmount, type TAsset } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { SELECT_CLASS } from '@web/components/ui/select';
import { OctagonAlert } from 'lucide-react';
import { PasteButton, ScanButton } from './address-tools';
import type { TWithdrawalFunds } from './check-withdrawal';
import type { TWithdrawForm } from './use-withdraw-form';

/** The asset to withdraw (the page of all assets), with its available balance under it. */
export function AssetField({ state }: { state: TWithdrawForm }) {
  const { form, asset, funds } = state;
  return (
    <FormField
      name="assetId"
      id="withdraw-asset"
      label="Cryptocurrency"
      className="space-y-2"
      describedBy={[asset && 'withdraw-asset-available']}
      after={asset && funds ? <Available asset={asset} funds={funds} /> : null}
    >
      {(control) => (
        <select
          {...control}
          className={SELECT_CLASS}
          onChange={(e) =>
            form.setValue('assetId', e.target.value, { shouldDirty: true, shouldTouch: true })
          }
        >
          <option value="">Select a cryptocurrency</option>
          {CUSTOMER_ASSETS.map((a) => (
            <option key={a.id} value={a.id}>
              {a.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** Where the crypto goes: typed, pasted or scanned from a QR code. */
export function AddressField({ state, fixedAsset }: { state: TWithdrawForm; fixedAsset?: TAsset }) {
  const { asset, fillAddress } = state;
  return (
    <FormField
      name="address"
      id={`${fixedAsset ? 'withdraw-asset' : 'withdraw'}-address`}
      label="Destination address"
      className="space-y-2"
    >
      {(control) => (
        <div className="flex gap-2">
          <Input
            {...control}
            type="text"
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
            translate="no"
            placeholder={
              fixedAsset
                ? `${fixedAsset.symbol} address`
                : asset
                  ? `Your ${asset.symbol} address`
                  : 'Select a cryptocurrency first'
            }
            className="min-w-0 font-mono"
          />
          <PasteButton onAddress={fillAddress} />
          <ScanButton onAddress={fillAddress} />
        </div>
      )}
    </FormField>
  );
}

/**
 * The amount, with Max: the available balance less the network fee. On an asset's own page
 * the available balance is on the label's line; the page of all assets shows it under the
 * asset's select.
 */
export function AmountField({ state, fixedAsset }: { state: TWithdrawForm; fixedAsset?: TAsset }) {
  const { asset, funds, fillMax, typedAmount } = state;
  return (
    <FormField
      name="amount"
      id={`${fixedAsset ? 'withdraw-asset' : 'withdraw'}-amount`}
      label="Amount"
      className="space-y-2"
      describedBy={[fixedAsset && 'withdraw-asset-available']}
      labelRowClassName="flex items-end justify-between gap-2"
      labelAside={
        fixedAsset && funds ? (
          <span id="withdraw-asset-available" className="text-xs text-muted">
            Available:{' '}
            <span className="tabular-nums">
              {formatAssetAmount(fixedAsset, funds.available, { exact: true })}
            </span>
          </span>
        ) : null
      }
    >
      {(control) => (
        <div className="flex gap-2">
          <Input
            {...control}
            onChange={(event) => {
              typedAmount();
              control.onChange(event);
            }}
            type="number"
            inputMode="decimal"
            step="0.00000001"
            min="0"
            placeholder="0.00000000"
            autoComplete="off"
            className="min-w-0"
          />
          <Button
            variant="outline"
            onClick={fillMax}
            disabled={!asset || !funds}
            aria-label={
              asset
                ? `Max: available balance minus the ${asset.networkFee} ${asset.symbol} network fee`
                : undefined
            }
          >
            Max
          </Button>
        </div>
      )}
    </FormField>
  );
}

/** A memo or destination tag, only for a network whose payments carry one. */
export function MemoField({ state, fixedAsset }: { state: TWithdrawForm; fixedAsset?: TAsset }) {
  if (!state.asset?.usesMemo) return null;
  return (
    <FormField
      name="memo"
      id={`${fixedAsset ? 'withdraw-asset' : 'withdraw'}-memo`}
      label="Memo / tag (optional)"
      className="space-y-2"
      hint="Only if the receiving exchange or wallet asks for one."
      type="text"
      autoComplete="off"
      maxLength={100}
    />
  );
}

/** What the customer must know before sending: strongly on an asset's page, calmly otherwise. */
export function WithdrawNotice({ fixedAsset }: { fixedAsset?: TAsset }) {
  if (fixedAsset) {
    return (
      <div className="flex items-start gap-3 rounded-lg border border-danger/50 bg-danger/10 p-3 text-sm text-danger">
        <OctagonAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <p>
          <strong>Withdrawals cannot be reversed.</strong> Crypto sent to a wrong address or network
          is lost for good. Double-check the address before you submit.
        </p>
      </div>
    );
  }
  return (
    <Alert variant="info" title="Security notice">
      Withdrawals are reviewed and processed within 1-24 hours. Check the address and network
      carefully: crypto sent to a wrong address cannot be recovered. Coffer staff will never ask you
      to withdraw to an address they give you.
    </Alert>
  );
}

/** The chosen asset's available balance under the asset's select; ETH also shows its staking. */
function Available({ asset, funds }: { asset: TAsset; funds: TWithdrawalFunds }) {
  return (
    <p id="withdraw-asset-available" className="text-sm text-muted">
      Available:{' '}
      <span className="tabular-nums text-fg">
        {formatAssetAmount(asset, funds.available, { exact: true })}
      </span>
      {asset.id === 'ETH' ? (
        <>
          {' '}
          · Staking (accruing, not yet withdrawable):{' '}
          <span className="tabular-nums">{formatAssetAmount(asset, funds.pendingStaking)}</span>
        </>
      ) : null}
    </p>
  );
}
