import { z } from 'zod';
import type { TAssetId } from '../assets';
import {
  ADDRESS_NETWORKS,
  refineNetworkAddress,
  type TAddressNetwork,
} from '../validation/addresses';
import { ZDepositAddressRequest } from './deposit-requests';
import { ZTransaction } from './money';
import { ZStepUp } from './step-up';

/**
 * Wallet management and deposit addresses. A balance edit never
 * overwrites a balance: it posts an `adjustment` for the difference (product.md M7).
 */

const ZDecimal = z.string();
const ZIso = z.string();

/** The texts of these screens, shared by the server and the browser. */
export const ADMIN_WALLET_MSG = {
  addressEmpty: 'Address cannot be empty',
  invalidBalance: 'Please enter a valid positive number',
  reasonRequired: 'Please give the reason for this balance change.',
  reasonTooLong: 'The reason can have at most 500 characters.',
  balanceUnchanged: 'The new balance is the same as the current balance.',
  balanceTooLarge: 'That balance is too large: enter at most 15 whole digits.',
  balanceValueTooLarge:
    'That balance change is worth too much to record: its USD value would need more than 15 whole digits.',
  requiredFields: 'Please fill all required fields.',
  requiredFieldsTitle: 'Validation Error',
  unsupportedAssetSymbol: 'Please choose an asset from the list.',
  addressTaken:
    'This address is already assigned to a customer. An address can belong to one customer only.',
  walletNotFound: 'Wallet not found.',
  userNotFound: 'User not found.',
  depositAddressNotFound: 'Deposit address not found.',
  deleteConfirm: 'Are you sure you want to delete this deposit address?',
  selectUser: 'Select a user to manage their wallets',
  noWallets: 'No wallets found for this user.',
  noUserAddresses: 'No deposit addresses found for this user.',
  noAddresses: 'No deposit addresses found',
  walletAddressUpdated: 'Wallet address updated successfully',
  depositAddressUpdated: 'Deposit address updated successfully',
  addressAdded: 'Address Added',
  addressUpdated: 'Address Updated',
  addressDeleted: 'Address Deleted',
  fetchWalletsFailed: 'Failed to fetch user wallets',
  fetchUserAddressesFailed: 'Failed to fetch deposit addresses',
  updateWalletAddressFailed: 'Failed to update wallet address',
  updateWalletBalanceFailed: 'Failed to update wallet balance',
  updateDepositAddressFailed: 'Failed to update deposit address',
  loadAddressesFailed: 'Failed to load deposit addresses. Please try again.',
  saveAddressFailed: 'Failed to save address. Please try again.',
  deleteAddressFailed: 'Failed to delete address. Please try again.',
  addressUnchanged: 'Nothing to change: the address already has these details.',
  walletAddressUnchanged: 'Nothing to change: the wallet already shows this address.',
  addressChangedSinceProposal:
    'This address was changed since the proposal: reject this change and propose it again.',
  walletAddressChangedSinceProposal:
    "This wallet's address was changed since the proposal: reject this change and propose it again.",
} as const;

/**
 * The balance moved between the proposal and its approval: the approver approves exactly the
 * movement they were shown, so a moved balance is refused rather than recomputed.
 */
export function balanceMovedText(then: string, now: string, asset: string): string {
  return `The balance changed since this was proposed (${then} ${asset} then, ${now} ${asset} now): reject this change and propose it again.`;
}

/** The balance asked for is below what pending withdrawals hold. */
export function balanceBelowHeldText(held: string, asset: string): string {
  return `The balance cannot be set below ${held} ${asset}: that much is held for pending withdrawals.`;
}

/** 'Wallet balance updated to {amount} {asset} (~${fiat})'. */
export function walletBalanceUpdatedText(amount: string, asset: string, fiat: string): string {
  return `Wallet balance updated to ${amount} ${asset} (~$${fiat})`;
}

/** Assets a deposit address may be for. */
export const DEPOSIT_ADDRESS_ASSETS = [
  'BTC',
  'ETH',
  'USDT',
  'USDC',
  'BNB',
  'SOL',
  'XRP',
  'ADA',
  'DOGE',
] as const;
export type TDepositAddressAsset = (typeof DEPOSIT_ADDRESS_ASSETS)[number];

export const ZAdminWalletsUserParams = z.object({
  userId: z.uuid({ error: ADMIN_WALLET_MSG.userNotFound }),
});
export const ZAdminWalletIdParams = z.object({
  id: z.uuid({ error: ADMIN_WALLET_MSG.walletNotFound }),
});
export const ZAdminDepositAddressIdParams = z.object({
  id: z.uuid({ error: ADMIN_WALLET_MSG.depositAddressNotFound }),
});

/**
 * Deleting a deposit address stops a customer's deposits landing: a fresh second factor. Like
 * every address and balance change, it is proposed (202 `{ pending }`) and applies when
 * another staff member approves it (`POST /api/admin/changes/:id/approve`).
 */
export const ZDeleteDepositAddressRequest = z.object({ stepUp: ZStepUp });
export type TDeleteDepositAddressRequest = z.infer<typeof ZDeleteDepositAddressRequest>;

// ---------------------------------------------------------------- wallets

export const ZAdminWallet = z.object({
  id: z.string(),
  userId: z.string(),
  /** Catalogue id: 'BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20', 'USDC'. */
  assetId: z.string(),
  symbol: z.string(),
  name: z.string(),
  network: z.string(),
  decimals: z.number().int(),
  nickname: z.string().nullable(),
  address: z.string().nullable(),
  /** Exact decimal strings, all digits: the edit field starts from this value. */
  balance: ZDecimal,
  /** Held for pending withdrawals; a balance edit cannot go below it. */
  held: ZDecimal,
  available: ZDecimal,
  /** balance × the current price, to the cent. */
  usdValue: ZDecimal,
  isActive: z.boolean(),
  updatedAt: ZIso,
});
export type TAdminWallet = z.infer<typeof ZAdminWallet>;

export const ZAdminUserWalletsResponse = z.object({ wallets: z.array(ZAdminWallet) });
export type TAdminUserWalletsResponse = z.infer<typeof ZAdminUserWalletsResponse>;

/** A wallet's address changes where money goes: proposed with a fresh second factor. */
export const ZUpdateWalletAddressRequest = z.object({
  address: z
    .string({ error: ADMIN_WALLET_MSG.addressEmpty })
    .trim()
    .min(1, ADMIN_WALLET_MSG.addressEmpty),
  stepUp: ZStepUp,
});
export type TUpdateWalletAddressRequest = z.infer<typeof ZUpdateWalletAddressRequest>;

/** A wallet as it is; no route answers with it since address changes are proposed (202). */
export const ZAdminWalletResponse = z.object({ wallet: ZAdminWallet });
export type TAdminWalletResponse = z.infer<typeof ZAdminWalletResponse>;

/** A plain non-negative decimal: digits with an optional fraction; no sign, no exponent. */
const PLAIN_DECIMAL = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

export const ZAdjustWalletBalanceRequest = z.object({
  /** The balance the wallet should have; the asset's decimals are checked by the server. */
  newBalance: z
    .string({ error: ADMIN_WALLET_MSG.invalidBalance })
    .trim()
    .regex(PLAIN_DECIMAL, ADMIN_WALLET_MSG.invalidBalance),
  reason: z
    .string({ error: ADMIN_WALLET_MSG.reasonRequired })
    .trim()
    .min(1, ADMIN_WALLET_MSG.reasonRequired)
    .max(500, ADMIN_WALLET_MSG.reasonTooLong),
  /**
   * A balance edit moves money: a fresh second factor (step-up). It is proposed (202
   * `{ pending }`) and posted when another staff member approves it.
   */
  stepUp: ZStepUp,
});
export type TAdjustWalletBalanceRequest = z.infer<typeof ZAdjustWalletBalanceRequest>;

/**
 * What an adjustment posted: since balance edits are proposed (202 `{ pending }`), no route
 * answers with it; the approval's change keeps `transactionId`, `direction` and `amount`.
 */
export const ZAdjustWalletBalanceResponse = z.object({
  wallet: ZAdminWallet,
  /** The `adjustment` posted for the difference. */
  transaction: ZTransaction,
});
export type TAdjustWalletBalanceResponse = z.infer<typeof ZAdjustWalletBalanceResponse>;

// ---------------------------------------------------------------- deposit addresses

export const ZAdminAddressOwner = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
});

export const ZAdminDepositAddress = z.object({
  id: z.string(),
  userId: z.string(),
  assetSymbol: z.string(),
  network: z.string(),
  address: z.string(),
  isActive: z.boolean(),
  createdAt: ZIso,
  updatedAt: ZIso,
  user: ZAdminAddressOwner,
});
export type TAdminDepositAddress = z.infer<typeof ZAdminDepositAddress>;

export const ZAdminDepositAddressesQuery = z.object({
  q: z.string().trim().max(200).optional(),
});

export const ZAdminDepositAddressesResponse = z.object({
  addresses: z.array(ZAdminDepositAddress),
  /** How many match in all; the list holds the newest ADMIN_ADDRESS_LIST_LIMIT of them. */
  total: z.number().int(),
});
export type TAdminDepositAddressesResponse = z.infer<typeof ZAdminDepositAddressesResponse>;

/** The most addresses one list answer holds; search narrows the rest down. */
export const ADMIN_ADDRESS_LIST_LIMIT = 500;

/** An address as it is; no route answers with it since address changes are proposed (202). */
export const ZAdminDepositAddressResponse = z.object({ address: ZAdminDepositAddress });

/** One customer's addresses, active or not, newest first (wallet management). */
export const ZAdminUserDepositAddressesResponse = z.object({
  addresses: z.array(ZAdminDepositAddress),
});
export type TAdminUserDepositAddressesResponse = z.infer<typeof ZAdminUserDepositAddressesResponse>;

const required = (max: number) =>
  z
    .string({ error: ADMIN_WALLET_MSG.requiredFields })
    .trim()
    .min(1, ADMIN_WALLET_MSG.requiredFields)
    .max(max);

const ZAddressAsset = z.enum(DEPOSIT_ADDRESS_ASSETS, {
  error: (issue) =>
    issue.input === undefined || issue.input === ''
      ? ADMIN_WALLET_MSG.requiredFields
      : ADMIN_WALLET_MSG.unsupportedAssetSymbol,
});
const ZNetwork = z.enum(ADDRESS_NETWORKS, { error: 'Please choose a network from the list.' });

export const ZCreateDepositAddressRequest = z
  .object({
    userId: z.uuid({ error: ADMIN_WALLET_MSG.requiredFields }),
    assetSymbol: ZAddressAsset,
    network: ZNetwork,
    address: required(200),
    isActive: z.boolean().default(true),
    /** Adding an address changes where a customer's money goes: a fresh second factor. */
    stepUp: ZStepUp,
  })
  .superRefine(refineNetworkAddress);
export type TCreateDepositAddressRequest = z.input<typeof ZCreateDepositAddressRequest>;

/** An edit sends the fields it changes; the address is checked against the resulting network. */
export const ZUpdateDepositAddressRequest = z.object({
  assetSymbol: ZAddressAsset.optional(),
  network: ZNetwork.optional(),
  address: required(200).optional(),
  isActive: z.boolean().optional(),
  /** Changing, switching off or on an address: a fresh second factor. */
  stepUp: ZStepUp,
});
export type TUpdateDepositAddressRequest = z.infer<typeof ZUpdateDepositAddressRequest>;

// ---------------------------------------------------------------- address requests

/** A customer's open request for an address, as staff see it: who, which asset, since when. */
export const ZAdminAddressRequest = ZDepositAddressRequest.extend({ user: ZAdminAddressOwner });
export type TAdminAddressRequest = z.infer<typeof ZAdminAddressRequest>;

/** `GET /api/admin/deposit-address-requests`: every open request, oldest first. */
export const ZAdminAddressRequestsResponse = z.object({
  requests: z.array(ZAdminAddressRequest),
});
export type TAdminAddressRequestsResponse = z.infer<typeof ZAdminAddressRequestsResponse>;

/** The asset and network an address of this customer wallet is entered with by staff. */
export function addressFieldsOf(assetId: TAssetId): {
  assetSymbol: TDepositAddressAsset;
  network: TAddressNetwork;
} {
  const fields: Record<TAssetId, { assetSymbol: TDepositAddressAsset; network: TAddressNetwork }> =
    {
      BTC: { assetSymbol: 'BTC', network: 'bitcoin' },
      ETH: { assetSymbol: 'ETH', network: 'ethereum' },
      'USDT-ERC20': { assetSymbol: 'USDT', network: 'erc20' },
      'USDT-TRC20': { assetSymbol: 'USDT', network: 'trc20' },
    };
  return fields[assetId];
}
