import {
  ADDRESS_NETWORKS,
  ADMIN_WALLET_MSG,
  DEPOSIT_ADDRESS_ASSETS,
  networkLabel,
  type TAdminDepositAddress,
  type TStepUp,
  validateNetworkAddress,
} from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { AddressInput } from '@web/components/admin/address-input';
import {
  type PickedUser,
  UserPicker,
  userDisplayName,
  userNameWithEmail,
} from '@web/components/admin/user-picker';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { DialogContent } from '@web/components/ui/dialog';
import {
  FORM_ERROR,
  Form,
  FormError,
  showServerError,
  type TFormErrors,
  useZodForm,
} from '@web/components/ui/form';
import { Label } from '@web/components/ui/label';
import { SELECT_CLASS } from '@web/components/ui/select';
import { Switch } from '@web/components/ui/switch';
import { errorMessage } from '@web/lib/api-client';
import { moneyStatusQueryOptions } from '@web/lib/money/get-money-status';
import { tellProposed } from '@web/lib/staff';
import { useId, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { useSaveDepositAddress } from '../api/save-deposit-address';

/** The network an asset's addresses are usually on, offered when none is chosen yet. */
const USUAL_NETWORK: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  USDT: 'erc20',
  USDC: 'erc20',
  BNB: 'bep20',
  SOL: 'solana',
};

/** What an "Assign address" of a customer's request fills in: the customer and the asset. */
export type AddressPreset = { user: PickedUser; assetSymbol: string; network: string };

type Props = {
  /** The address to edit; null to add one. */
  editing: TAdminDepositAddress | null;
  /** Fields an added address starts with (a customer's request); the rest stay empty. */
  preset?: AddressPreset | null;
  onDone: () => void;
};

type TFields = {
  user: PickedUser | null;
  assetSymbol: string;
  network: string;
  address: string;
  isActive: boolean;
};

/** Add Address / Edit Address. Render inside an open <Dialog>. */
export function AddressDialog({ editing, preset = null, onDone }: Props) {
  const save = useSaveDepositAddress();
  const queryClient = useQueryClient();

  /** Every field first (one message for them all), then the address for its network. */
  async function check(values: TFields): Promise<TFormErrors<TFields>> {
    const chain = ADDRESS_NETWORKS.find((n) => n === values.network);
    const asset = DEPOSIT_ADDRESS_ASSETS.find((a) => a === values.assetSymbol);
    if (!values.user || !asset || !chain || values.address.trim() === '') {
      return { [FORM_ERROR]: ADMIN_WALLET_MSG.requiredFields };
    }
    // A Bitcoin address is checked for the server's BTC_NETWORK, which the money status
    // hands to the shared checks as it loads (lib/money/get-money-status). If it cannot be
    // loaded, the server's own check decides rather than one for the wrong network.
    const networkKnown =
      chain !== 'bitcoin' ||
      (await queryClient.fetchQuery(moneyStatusQueryOptions()).then(
        () => true,
        () => false,
      ));
    const checked = networkKnown
      ? validateNetworkAddress(chain, values.address)
      : { ok: true as const };
    return checked.ok ? {} : { address: checked.message };
  }

  const form = useZodForm<TFields>(
    null,
    {
      user: editing ? editing.user : (preset?.user ?? null),
      assetSymbol: editing?.assetSymbol ?? preset?.assetSymbol ?? '',
      network: editing?.network ?? preset?.network ?? '',
      address: editing?.address ?? '',
      isActive: editing?.isActive ?? true,
    },
    { check },
  );
  const user = form.watch('user');

  /** Missing fields are also told in a toast; a wrong address only in the dialog. */
  function refused(errors: TFormErrors<TFields>) {
    const missing = errors[FORM_ERROR];
    if (missing) toast.error(ADMIN_WALLET_MSG.requiredFieldsTitle, { description: missing });
  }

  /** The checked fields, waiting for the admin's fresh second factor (step-up). */
  const [asking, setAsking] = useState<TFields | null>(null);

  /** What the proposal sends: the fields as the server reads them, or null if any is missing. */
  function fieldsOf(values: TFields) {
    const asset = DEPOSIT_ADDRESS_ASSETS.find((a) => a === values.assetSymbol);
    const chain = ADDRESS_NETWORKS.find((n) => n === values.network);
    if (!values.user || !asset || !chain) return null;
    return {
      owner: values.user,
      fields: {
        assetSymbol: asset,
        network: chain,
        address: values.address.trim(),
        isActive: values.isActive,
      },
    };
  }

  /**
   * Sends the proposal (202): an address decides where a customer's money lands, so it is
   * added or changed only when another staff member approves it.
   */
  async function confirm(stepUp: TStepUp) {
    const checked = asking ? fieldsOf(asking) : null;
    if (!checked) return;
    const { owner, fields } = checked;
    const answer = editing
      ? await save.mutateAsync({ id: editing.id, body: { ...fields, stepUp } })
      : await save.mutateAsync({ id: null, body: { ...fields, userId: owner.id, stepUp } });
    setAsking(null);
    tellProposed(answer);
    onDone();
  }

  function failed(err: unknown) {
    setAsking(null);
    showServerError(form, err, (e) => errorMessage(e, ADMIN_WALLET_MSG.saveAddressFailed));
    toast.error('Error', { description: ADMIN_WALLET_MSG.saveAddressFailed });
  }

  const asked = asking ? fieldsOf(asking) : null;
  return (
    <DialogContent
      title={editing ? 'Edit Deposit Address' : 'Add Deposit Address'}
      description={
        editing
          ? 'Change the asset, network, address or whether the customer sees it.'
          : 'Assign an address to one customer. An address can belong to one customer only.'
      }
    >
      {/* One message at a time, above the buttons: summary shows the first one found. */}
      <StepUpDialog
        open={asking !== null}
        title={editing ? 'Confirm the address change' : 'Confirm the new address'}
        description={
          asked
            ? `Propose ${editing ? 'this' : 'a new'} ${asked.fields.assetSymbol} address (${networkLabel(asked.fields.network)}) for ${userDisplayName(asked.owner)}: it applies when another staff member approves it.`
            : ''
        }
        confirmLabel="Propose"
        pendingLabel="Proposing..."
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Form
        form={form}
        onSubmit={(values) => {
          form.clearErrors('root');
          setAsking(values);
        }}
        onInvalid={refused}
        summary
        className="space-y-4"
      >
        {editing ? (
          <div className="space-y-1">
            <p className="text-sm font-medium text-fg">Customer</p>
            <p className="text-sm text-muted">{userNameWithEmail(editing.user)}</p>
          </div>
        ) : (
          <UserPicker
            value={user}
            onChange={(picked) => form.setValue('user', picked)}
            label="Customer"
          />
        )}
        <AddressFields form={form} />
        <FormError />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Proposing...' : editing ? 'Save Changes' : 'Add Address'}
          </Button>
        </div>
      </Form>
    </DialogContent>
  );
}

/** The asset, its network (the usual one offered), the address and whether the customer sees it. */
function AddressFields({ form }: { form: UseFormReturn<TFields> }) {
  const id = useId();
  const { assetSymbol, network, address, isActive } = form.watch();
  return (
    <>
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
                {networkLabel(n)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-address`}>Address</Label>
        <AddressInput
          id={`${id}-address`}
          value={address}
          onChange={(e) => form.setValue('address', e.target.value)}
          placeholder="Deposit address"
        />
      </div>
      <div className="flex items-center gap-2">
        <Switch
          id={`${id}-active`}
          checked={isActive}
          onCheckedChange={(on) => form.setValue('isActive', on)}
        />
        <Label htmlFor={`${id}-active`}>Active (shown on the customer&apos;s deposit page)</Label>
      </div>
    </>
  );
}
