import { formatRounded, formatUsd } from '@coffer/shared';
import { cryptoFigure, type TFundingOption } from './funding';

/**
 * What the customer is about to ask for, before submitting: the AUD paid out, what is held
 * from the chosen asset, and the rates that figure comes from.
 */
export function TransferSummary({
  aud,
  usd,
  rate,
  option,
}: {
  aud: string;
  usd: string;
  rate: string;
  option: TFundingOption | undefined;
}) {
  return (
    <section
      aria-labelledby="bank-summary"
      aria-live="polite"
      className="space-y-1 rounded-lg border border-border p-4 text-sm"
    >
      <h2 id="bank-summary" className="font-semibold text-fg">
        Summary
      </h2>
      <p className="text-fg">
        You request A${aud} (about US${usd}). The AUD amount is what is paid out.
      </p>
      {option?.need != null && option.priceUsd !== null ? (
        <>
          <p className={option.enough ? 'text-fg' : 'text-danger'}>
            Held from your {option.asset.symbol}:{' '}
            <span className="font-semibold tabular-nums">
              {cryptoFigure(option.need, option.asset)}
            </span>
          </p>
          <p className="text-muted">
            At 1 AUD = {formatRounded(rate, 4, false) ?? rate} USD and 1 {option.asset.symbol} ={' '}
            {formatUsd(option.priceUsd)}. It is paid out of that hold once the transfer is
            processed, and released back to your balance if the transfer is rejected.
          </p>
        </>
      ) : (
        <p className="text-muted">Choose what to pay from to see the amount held.</p>
      )}
    </section>
  );
}
