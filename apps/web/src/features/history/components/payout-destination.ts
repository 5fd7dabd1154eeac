import type { TTransaction } from '@coffer/shared';

/** '062-000': a BSB as banks print it. */
const bsbText = (bsb: string) => (/^\d{6}$/.test(bsb) ? `${bsb.slice(0, 3)}-${bsb.slice(3)}` : bsb);

/**
 * Where a payout goes: a withdrawal's address, or a bank payout's account by name, BSB and
 * last digits (null for a bank transfer Coffer has no account for).
 */
export function destinationOf(tx: TTransaction): string | null {
  if (tx.type !== 'bank_transfer') return tx.withdrawalAddress;
  const account = tx.bankAccount;
  return account
    ? `${account.accountName}, BSB ${bsbText(account.bsb)}, account ending ${account.accountEnding}`
    : null;
}
