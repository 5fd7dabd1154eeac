import { z } from 'zod';
import { ASSETS, networkLabel, type TAssetId, ZAssetId } from '../assets';

/**
 * Deposit address requests: on a chain Coffer does not watch no address can be derived, so
 * the customer asks staff for one. One open request per customer and asset; it is fulfilled
 * when staff add an active address of that asset for the customer.
 */

const ZIso = z.string();

/**
 * 'BTC', 'ETH', 'USDT (ERC-20)', 'USDT (TRC-20)': an asset named with its network where the
 * symbol alone is ambiguous.
 */
export function depositAssetTitle(assetId: TAssetId): string {
  const asset = ASSETS[assetId];
  return asset.network === 'erc20' || asset.network === 'trc20'
    ? `${asset.symbol} (${networkLabel(asset.network)})`
    : asset.symbol;
}

/** The texts of a refused request, shared by the server and the deposit page. */
export const DEPOSIT_REQUEST_MSG = {
  watched: (assetId: TAssetId) =>
    `Coffer makes your ${depositAssetTitle(assetId)} deposit address for you: refresh your deposit page to see it.`,
  haveAddress: (assetId: TAssetId) =>
    `You already have a ${depositAssetTitle(assetId)} deposit address: it is on your deposit page.`,
  failed: 'The request could not be sent. Please try again.',
} as const;

/** A customer's open request. */
export const ZDepositAddressRequest = z.object({
  id: z.string(),
  assetId: ZAssetId,
  network: z.string(),
  requestedAt: ZIso,
});
export type TDepositAddressRequest = z.infer<typeof ZDepositAddressRequest>;

/**
 * A customer wallet the deposit page has no address for, on a chain Coffer does not watch:
 * an address is asked of staff. `request` is the customer's request while it waits.
 */
export const ZRequestableAsset = z.object({
  assetId: ZAssetId,
  network: z.string(),
  request: ZDepositAddressRequest.nullable(),
});
export type TRequestableAsset = z.infer<typeof ZRequestableAsset>;

/** `POST /api/deposit-address-requests`: the asset; a second ask answers with the open request. */
export const ZRequestDepositAddressBody = z.object({ assetId: ZAssetId });
export type TRequestDepositAddressBody = z.infer<typeof ZRequestDepositAddressBody>;

export const ZDepositAddressRequestResponse = z.object({ request: ZDepositAddressRequest });
export type TDepositAddressRequestResponse = z.infer<typeof ZDepositAddressRequestResponse>;
