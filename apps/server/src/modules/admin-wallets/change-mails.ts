import { networkLabel, type TAsset } from '@coffer/shared';

type Mail = { subject: string; text: string };

/** A wallet as customers name it: 'BTC', 'USDT (ERC-20)'. */
export function walletTitle(asset: TAsset): string {
  return asset.network === 'erc20' || asset.network === 'trc20'
    ? `${asset.symbol} (${networkLabel(asset.network)})`
    : asset.symbol;
}

/** What an applied address change did, as the customer's mail says it. */
export type AddressChange =
  | 'added'
  | 'added-inactive'
  | 'changed'
  | 'switched-off'
  | 'switched-on'
  | 'deleted';

const CLOSING = [
  '',
  'If you did not expect this, contact support from your dashboard before you send money to your account.',
];

/**
 * The customer's mail when a change of their deposit or wallet address applies. It never holds
 * the address: a mail can be forged or read by others, and the deposit page is the one
 * place a customer copies an address from (as the "address is ready" mail says too).
 */
export function addressChangeMail(
  change: AddressChange,
  address: { assetSymbol: string; network: string },
  publicUrl: string,
): Mail {
  const title = `${address.assetSymbol} (${networkLabel(address.network)})`;
  const what: Record<AddressChange, { subject: string; line: string }> = {
    added: {
      subject: `A ${title} deposit address was added to your account`,
      line: `Coffer staff added a ${title} deposit address to your account.`,
    },
    'added-inactive': {
      subject: `A ${title} deposit address was added to your account`,
      line: `Coffer staff added a ${title} deposit address to your account, not active yet: your deposit page shows it once it is activated.`,
    },
    changed: {
      subject: `Your ${title} deposit address was changed`,
      line: `Coffer staff changed your ${title} deposit address.`,
    },
    'switched-off': {
      subject: `Your ${title} deposit address was deactivated`,
      line: `Coffer staff deactivated your ${title} deposit address: do not send money to it any more.`,
    },
    'switched-on': {
      subject: `Your ${title} deposit address was reactivated`,
      line: `Coffer staff reactivated your ${title} deposit address.`,
    },
    deleted: {
      subject: `Your ${title} deposit address was deleted`,
      line: `Coffer staff deleted your ${title} deposit address: do not send money to it any more.`,
    },
  };
  return {
    subject: what[change].subject,
    text: [
      what[change].line,
      '',
      `Your deposit page shows the addresses you can use: ${publicUrl}/dashboard/deposit`,
      '',
      'For your safety this mail does not show the address. Always copy it from your deposit page.',
      ...CLOSING,
    ].join('\n'),
  };
}

/** The customer's mail when a wallet's own address (shown with the wallet) was changed. */
export function walletAddressMail(asset: TAsset, publicUrl: string): Mail {
  const title = walletTitle(asset);
  return {
    subject: `The address of your ${title} wallet was changed`,
    text: [
      `Coffer staff changed the address shown with your ${title} wallet.`,
      '',
      `Your deposit page shows the addresses you can use: ${publicUrl}/dashboard/deposit`,
      '',
      'For your safety this mail does not show the address. Always copy it from your deposit page.',
      ...CLOSING,
    ].join('\n'),
  };
}

/** The customer's mail when a balance adjustment was posted to their wallet. */
export function adjustmentMail(
  a: { asset: TAsset; direction: 'credit' | 'debit'; amount: string },
  reason: string,
  publicUrl: string,
): Mail {
  const title = walletTitle(a.asset);
  const line =
    a.direction === 'credit'
      ? `Coffer staff credited ${a.amount} ${a.asset.symbol} to your ${title} wallet (a balance adjustment).`
      : `Coffer staff debited ${a.amount} ${a.asset.symbol} from your ${title} wallet (a balance adjustment).`;
  return {
    subject: `Your ${title} balance was adjusted`,
    text: [
      line,
      '',
      `The reason given: ${reason}`,
      '',
      `It is in your transaction history: ${publicUrl}/dashboard/history`,
      '',
      'If you did not expect this, contact support from your dashboard.',
    ].join('\n'),
  };
}
