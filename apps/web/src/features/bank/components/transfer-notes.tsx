import { useMoneyStatus } from '@web/lib/money/get-money-status';

function StatementNote() {
  const status = useMoneyStatus();
  if (status.data) {
    return (
      <li>
        Deposits will appear on your bank statement as "{status.data.bankStatementDescriptor}"
      </li>
    );
  }
  return (
    <li>
      {status.isError
        ? 'The name deposits appear under on your bank statement could not be loaded; contact support before relying on it.'
        : 'Loading the name deposits appear under on your bank statement...'}
    </li>
  );
}

/** What the customer should know before asking for a bank transfer. */
export function TransferNotes() {
  return (
    <section
      aria-labelledby="bank-notes"
      className="rounded-lg border border-border bg-surface-2 p-4"
    >
      <h2 id="bank-notes" className="text-sm font-semibold text-fg">
        Important Notes
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted">
        <li>Bank transfers are processed within 1-3 business days.</li>
        <li>
          The transfer is paid from the balance you choose: the amount is converted at our rates
          when you submit and held from that asset until the transfer is processed. If the transfer
          is rejected, the hold is released back to your balance.
        </li>
        <li>Check your account name, account number and BSB carefully before you submit.</li>
        <li>You will receive a confirmation email once the transfer has been processed.</li>
        <li>To change a request after submitting it, contact support.</li>
        <li>Exchange rates update in real time and may fluctuate.</li>
        <StatementNote />
      </ul>
    </section>
  );
}
