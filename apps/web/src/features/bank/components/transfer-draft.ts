import { convertFiat, type TPricesResponse, type TWalletsResponse } from '@coffer/shared';
import { fundingOptions, payableAud, type TFundingOption } from './funding';

/**
 * The bank transfer form's fields. The amount is kept as typed, in the currency last typed
 * in (`currency`); the other one is its conversion at the rate of the moment, so a rate that
 * arrives later converts it again.
 */
export type TTransferFields = {
  accountName: string;
  accountNumber: string;
  bsbNumber: string;
  assetId: string;
  currency: 'AUD' | 'USD';
  amountAud: string;
  amountUsd: string;
};

export const EMPTY_TRANSFER: TTransferFields = {
  accountName: '',
  accountNumber: '',
  bsbNumber: '',
  assetId: '',
  currency: 'AUD',
  amountAud: '',
  amountUsd: '',
};

/** What may be typed into a money field: digits, one point, at most two decimals. */
export const FIAT_TYPING = /^\d{0,12}(\.\d{0,2})?$/;

/** A typed amount as a plain decimal: '12.' is '12', '.5' is '0.5'. */
export function normalize(typed: string): string {
  const trimmed = typed.endsWith('.') ? typed.slice(0, -1) : typed;
  return trimmed.startsWith('.') ? `0${trimmed}` : trimmed;
}

/** The converted counterpart of a typed amount, or '' while it is not a number yet ('.'). */
function convert(typed: string, rate: string, direction: 'aud-to-usd' | 'usd-to-aud'): string {
  const value = normalize(typed);
  if (!/^\d+(\.\d+)?$/.test(value)) return '';
  try {
    return convertFiat(value, rate, direction);
  } catch {
    return '';
  }
}

/**
 * What the fields stand for at the rates the page last read: both amounts (the one typed and
 * its conversion), the assets that could pay and what each would take, the one chosen, and
 * the request the shared schema checks.
 */
export function transferDraftOf(
  fields: TTransferFields,
  rate: string,
  wallets: TWalletsResponse | undefined,
  prices: TPricesResponse | undefined,
) {
  const { currency, amountAud, amountUsd } = fields;
  const aud = currency === 'AUD' ? amountAud : convert(amountUsd, rate, 'usd-to-aud');
  const usd = currency === 'USD' ? amountUsd : convert(amountAud, rate, 'aud-to-usd');
  const options: TFundingOption[] = fundingOptions(wallets, prices, payableAud(normalize(aud)));
  const chosen = options.find((o) => o.asset.id === fields.assetId);
  return {
    aud,
    usd,
    options,
    chosen,
    request: {
      accountNumber: fields.accountNumber,
      accountName: fields.accountName,
      bsbNumber: fields.bsbNumber,
      amountAud: normalize(aud),
      // An asset that cannot pay (no balance left) is no choice.
      assetId: chosen?.asset.id,
    },
  };
}
