import {
  ADDRESS_NETWORKS,
  DEPOSIT_ADDRESS_ASSETS,
  type TAdminDepositAddress,
  type TDepositAddressAsset,
} from '@coffer/shared';
import type { PickedUser } from '@web/components/admin/user-picker';

/** The Add and Edit Address form's fields, as chosen and typed. */
export type TAddressFields = {
  /** The customer (Add); an edit keeps the address's owner. */
  user: PickedUser | null;
  assetSymbol: string;
  network: string;
  address: string;
  isActive: boolean;
};

/** The network an asset's addresses are usually on, offered when none is chosen yet. */
export const USUAL_NETWORK: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  USDT: 'erc20',
  USDC: 'erc20',
  BNB: 'bep20',
  SOL: 'solana',
};

export function initialAddressFields(editing: TAdminDepositAddress | null): TAddressFields {
  return {
    user: editing ? editing.user : null,
    assetSymbol: editing?.assetSymbol ?? '',
    network: editing?.network ?? '',
    address: editing?.address ?? '',
    isActive: editing?.isActive ?? true,
  };
}

/** The address as it will be sent, and the customer it is for. */
export type TAddressRequest = {
  user: PickedUser;
  fields: {
    assetSymbol: TDepositAddressAsset;
    network: (typeof ADDRESS_NETWORKS)[number];
    address: string;
    isActive: boolean;
  };
};

/**
 * The request the fields stand for; null while a field it needs (the customer, an asset and
 * a network from the lists, the address) is missing.
 */
export function addressRequestOf(fields: TAddressFields): TAddressRequest | null {
  const asset = DEPOSIT_ADDRESS_ASSETS.find((a) => a === fields.assetSymbol);
  const network = ADDRESS_NETWORKS.find((n) => n === fields.network);
  const { user } = fields;
  if (!user || !asset || !network || fields.address.trim() === '') return null;
  return {
    user,
    fields: {
      assetSymbol: asset,
      network,
      address: fields.address.trim(),
      isActive: fields.isActive,
    },
  };
}
