import {
  assetById,
  networkLabel,
  normalizeBankReference,
  normalizeTxHash,
  type TAdminTransaction,
  type TReferenceResult,
} from '@coffer/shared';
import { CustomerText } from '@web/components/ui/customer-text';
import {
  audRateText,
  audText,
  cryptoText,
  HeldAmount,
  isFundedBankPayout,
  priceText,
  usdText,
} from './present';

export const isBank = (tx: TAdminTransaction) => tx.type === 'bank_transfer';

export function amountOf(tx: TAdminTransaction): string {
  if (!isBank(tx)) return cryptoText(tx);
  const fiat = tx.currency === 'USD' ? usdText(tx) : audText(tx);
  // A funded payout also names what it holds, so the dialogs say what will be debited.
  return isFundedBankPayout(tx) ? `${fiat} (${cryptoText(tx)} held)` : fiat;
}

/**
 * A bank payout's figures: the AUD paid, the crypto held for it, its USD value and both
 * rates it was converted at (product.md M11).
 */
export function Amount({ tx }: { tx: TAdminTransaction }) {
  if (!isBank(tx)) return <>{cryptoText(tx)}</>;
  const fiat = tx.currency === 'USD' ? usdText(tx) : audText(tx);
  if (!isFundedBankPayout(tx)) return <>{fiat}</>;
  return (
    <span className="min-w-0">
      <span className="block font-medium">{fiat}</span>
      <span className="block whitespace-nowrap">
        <HeldAmount tx={tx} />
      </span>
      <span className="block">≈ {usdText(tx)}</span>
      <span className="block text-xs text-muted">
        {[
          tx.audUsdRate ? audRateText(tx.audUsdRate) : null,
          tx.priceUsd ? priceText(tx, tx.priceUsd) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </span>
  );
}

/** What staff must type to prove the payout left: the rule's message, or the normalised value. */
export function checkReference(tx: TAdminTransaction, reference: string): TReferenceResult {
  return isBank(tx) ? normalizeBankReference(reference) : normalizeTxHash(tx.assetId, reference);
}

/** Where a pending payout goes: the bank account, or the address and, when it has one, the memo. */
export function Destination({ tx }: { tx: TAdminTransaction }) {
  if (tx.bankTransfer) {
    return (
      <span className="min-w-0 text-xs">
        <CustomerText text={tx.bankTransfer.accountName} className="block" />
        <span className="block">
          BSB <CustomerText text={tx.bankTransfer.bsbNumber} /> ·{' '}
          <CustomerText text={tx.bankTransfer.accountNumber} />
        </span>
      </span>
    );
  }
  return (
    <span className="min-w-0 text-xs">
      <CustomerText text={tx.withdrawalAddress ?? '—'} className="block font-mono" />
      {tx.memo ? (
        <span className="block text-muted">
          Memo <CustomerText text={tx.memo} className="font-mono text-fg" />
        </span>
      ) : null}
    </span>
  );
}

/**
 * Where the payout goes, repeated in the Complete dialog before staff confirm it: the bank
 * account, or the network, address and memo of a crypto withdrawal.
 */
export function DestinationFacts({ tx }: { tx: TAdminTransaction }) {
  const facts: Array<[string, string, boolean]> = tx.bankTransfer
    ? [
        ['Account name', tx.bankTransfer.accountName, false],
        ['BSB', tx.bankTransfer.bsbNumber, true],
        ['Account number', tx.bankTransfer.accountNumber, true],
      ]
    : [
        ['Network', networkLabel(tx.network ?? assetById(tx.assetId)?.network), false],
        ['Address', tx.withdrawalAddress ?? '—', true],
        ...(tx.memo ? [['Memo', tx.memo, true] as [string, string, boolean]] : []),
      ];
  return (
    <section
      aria-label="Destination"
      className="mb-4 rounded-md border border-border bg-surface-2 p-3"
    >
      <h3 className="mb-2 text-sm font-medium text-fg">Pays to</h3>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {facts.map(([label, value, mono]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className={mono ? 'font-mono text-xs leading-5' : undefined}>
              <CustomerText text={value} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
