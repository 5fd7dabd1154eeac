import {
  ADMIN_WALLET_MSG,
  type TAdminDepositAddress,
  validateNetworkAddress,
} from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { AddressInput } from '@web/components/admin/address-input';
import { UserPicker, userDisplayName } from '@web/components/admin/user-picker';
import { Button } from '@web/components/ui/button';
import { DialogContent } from '@web/components/ui/dialog';
import { FORM_ERROR, Form, FormError, showServerError, useZodForm } from '@web/components/ui/form';
import { Label } from '@web/components/ui/label';
import { Switch } from '@web/components/ui/switch';
import { errorMessage } from '@web/lib/api-client';
import { moneyStatusQueryOptions } from '@web/lib/money/get-money-status';
import { useId } from 'react';
import { toast } from 'sonner';
import { useSaveDepositAddress } from '../api/save-deposit-address';
import {
  addressRequestOf,
  initialAddressFields,
  type TAddressFields,
  type TAddressRequest,
} from './address-fields';
import { AssetNetworkFields } from './asset-network-fields';

type Props = {
  /** The address to edit; null to add one. */
  editing: TAdminDepositAddress | null;
  onDone: () => void;
};

/** Add Address / Edit Address. Render inside an open <Dialog>. */
export function AddressDialog({ editing, onDone }: Props) {
  const id = useId();
  const save = useSaveDepositAddress();
  const queryClient = useQueryClient();
  // The checks run in `submit`: a missing field is also told in a toast, which a check of
  // the form layer cannot do.
  const form = useZodForm<TAddressFields>(null, initialAddressFields(editing));
  const f = form.watch();

  /** Whether a Bitcoin address can be checked for the network the server checks it for. */
  async function networkKnown(network: string): Promise<boolean> {
    // A Bitcoin address is checked for the server's BTC_NETWORK, which the money status
    // hands to the shared checks as it loads (lib/money/get-money-status). If it cannot be
    // loaded, the server's own check decides rather than one for the wrong network.
    if (network !== 'bitcoin') return true;
    return queryClient.fetchQuery(moneyStatusQueryOptions()).then(
      () => true,
      () => false,
    );
  }

  async function send({ user, fields }: TAddressRequest) {
    try {
      if (editing) {
        await save.mutateAsync({ id: editing.id, body: fields });
        toast.success(ADMIN_WALLET_MSG.addressUpdated, {
          description: `${fields.assetSymbol} address of ${userDisplayName(user)} saved.`,
        });
      } else {
        await save.mutateAsync({ id: null, body: { ...fields, userId: user.id } });
        toast.success(ADMIN_WALLET_MSG.addressAdded, {
          description: `${fields.assetSymbol} address added for ${userDisplayName(user)}.`,
        });
      }
      onDone();
    } catch (err) {
      showServerError(form, err, (e) => errorMessage(e, ADMIN_WALLET_MSG.saveAddressFailed));
      toast.error('Error', { description: ADMIN_WALLET_MSG.saveAddressFailed });
    }
  }

  async function submit(values: TAddressFields) {
    const request = addressRequestOf(values);
    if (!request) {
      form.setError(`root.${FORM_ERROR}`, { message: ADMIN_WALLET_MSG.requiredFields });
      toast.error(ADMIN_WALLET_MSG.requiredFieldsTitle, {
        description: ADMIN_WALLET_MSG.requiredFields,
      });
      return;
    }
    const { network } = request.fields;
    const checked = (await networkKnown(network))
      ? validateNetworkAddress(network, values.address)
      : { ok: true as const };
    if (!checked.ok) {
      form.setError(`root.${FORM_ERROR}`, { message: checked.message });
      return;
    }
    await send(request);
  }

  return (
    <DialogContent
      title={editing ? 'Edit Deposit Address' : 'Add Deposit Address'}
      description={
        editing
          ? 'Change the asset, network, address or whether the customer sees it.'
          : 'Assign an address to one customer. An address can belong to one customer only.'
      }
    >
      <Form form={form} onSubmit={submit} className="space-y-4">
        {editing ? (
          <div className="space-y-1">
            <p className="text-sm font-medium text-fg">Customer</p>
            <p className="text-sm text-muted">
              {userDisplayName(editing.user)}
              {userDisplayName(editing.user) !== editing.user.email
                ? ` (${editing.user.email})`
                : ''}
            </p>
          </div>
        ) : (
          <UserPicker
            value={f.user}
            onChange={(user) => form.setValue('user', user)}
            label="Customer"
          />
        )}
        <AssetNetworkFields form={form} id={id} />
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-address`}>Address</Label>
          <AddressInput
            id={`${id}-address`}
            value={f.address}
            onChange={(e) => form.setValue('address', e.target.value)}
            placeholder="Deposit address"
          />
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-active`}
            checked={f.isActive}
            onCheckedChange={(on) => form.setValue('isActive', on)}
          />
          <Label htmlFor={`${id}-active`}>Active (shown on the customer&apos;s deposit page)</Label>
        </div>
        <FormError />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Address'}
          </Button>
        </div>
      </Form>
    </DialogContent>
  );
}
