import { networkLabel, type TAsset, type TWithdrawalDraft } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { ArrowLeft } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { amountText } from './fee-summary';

function Row({ term, strong, children }: { term: string; strong?: boolean; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2 first:pt-0 last:pb-0">
      {/* The label wraps first: a figure breaks only when it is longer than the row. */}
      <dt className={`min-w-0 ${strong ? 'font-medium text-fg' : 'text-muted'}`}>{term}</dt>
      <dd
        className={`max-w-[70%] shrink-0 wrap-anywhere text-right tabular-nums text-fg ${strong ? 'font-semibold' : 'font-medium'}`}
      >
        {children}
      </dd>
    </div>
  );
}

/**
 * The request as it will leave, for the customer to check before the second factor is asked
 * for: what is sent, the fee, what arrives, what leaves the balance, and where it goes, the
 * address whole (a swapped address is the one mistake no one can undo).
 */
export function WithdrawReview({
  asset,
  draft,
  amountMinor,
  feeMinor,
  disabled,
  pending,
  onBack,
  onConfirm,
}: {
  asset: TAsset;
  draft: TWithdrawalDraft;
  amountMinor: bigint;
  feeMinor: bigint;
  /** Withdrawals closed meanwhile: nothing can be confirmed. */
  disabled: boolean;
  pending: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form gave way to the review: the keyboard and a screen reader start at its title.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section aria-labelledby="withdraw-review-title" className="space-y-5">
      <div className="space-y-1">
        <h2
          id="withdraw-review-title"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold text-fg focus:outline-none"
        >
          Review your withdrawal
        </h2>
        <p className="text-sm text-muted">
          Check every detail. A withdrawal cannot be reversed once it is sent.
        </p>
      </div>

      <dl className="divide-y divide-border rounded-lg border border-border bg-surface-2 p-4 text-sm">
        <Row term="Amount">{amountText(amountMinor, asset)}</Row>
        <Row term="Network fee">{amountText(feeMinor, asset)}</Row>
        <Row term="Recipient receives">{amountText(amountMinor, asset)}</Row>
        <Row term="Total from your balance" strong>
          {amountText(amountMinor + feeMinor, asset)}
        </Row>
      </dl>

      <dl className="space-y-3 rounded-lg border border-border p-4 text-sm">
        <div className="space-y-1">
          <dt className="text-muted">To ({networkLabel(asset.network)})</dt>
          <dd className="font-mono text-base break-all text-fg" translate="no">
            {draft.address}
          </dd>
        </div>
        {draft.memo ? (
          <div className="space-y-1">
            <dt className="text-muted">Memo / tag</dt>
            <dd className="font-mono break-all text-fg" translate="no">
              {draft.memo}
            </dd>
          </div>
        ) : null}
      </dl>

      <div className="flex flex-col-reverse gap-3 sm:flex-row">
        <Button variant="outline" size="lg" onClick={onBack} disabled={pending}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Edit
        </Button>
        <Button size="lg" className="sm:flex-1" onClick={onConfirm} disabled={disabled || pending}>
          {pending ? 'Processing...' : 'Confirm and continue'}
        </Button>
      </div>
    </section>
  );
}
