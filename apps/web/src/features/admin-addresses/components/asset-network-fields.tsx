import { ADDRESS_NETWORKS, DEPOSIT_ADDRESS_ASSETS } from '@coffer/shared';
import { SELECT_CLASS } from '@web/components/admin/stacked-table';
import { Label } from '@web/components/ui/label';
import type { UseFormReturn } from 'react-hook-form';
import { type TAddressFields, USUAL_NETWORK } from './address-fields';

/** The asset and network choices; picking an asset offers its usual network when none is chosen. */
export function AssetNetworkFields({
  form,
  id,
}: {
  form: UseFormReturn<TAddressFields>;
  /** The form's id, the start of each field's. */
  id: string;
}) {
  const [assetSymbol, network] = form.watch(['assetSymbol', 'network']);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-asset`}>Asset</Label>
        <select
          id={`${id}-asset`}
          className={SELECT_CLASS}
          value={assetSymbol}
          onChange={(e) => {
            form.setValue('assetSymbol', e.target.value);
            if (network === '') form.setValue('network', USUAL_NETWORK[e.target.value] ?? '');
          }}
        >
          <option value="">Select asset</option>
          {DEPOSIT_ADDRESS_ASSETS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-network`}>Network</Label>
        <select
          id={`${id}-network`}
          className={SELECT_CLASS}
          value={network}
          onChange={(e) => form.setValue('network', e.target.value)}
        >
          <option value="">Select network</option>
          {ADDRESS_NETWORKS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
