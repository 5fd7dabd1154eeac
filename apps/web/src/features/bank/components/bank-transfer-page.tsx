import { ASSETS } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { BackLink } from '@web/components/ui/back-link';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { Form, FormError, FormField, useFieldMessage } from '@web/components/ui/form';
import { LoadFailedAlert } from '@web/components/ui/load-failed-alert';
import { useBankDetails } from '../api/get-bank-details';
import { AccountNumberField } from './account-number-field';
import { formatBsb } from './bsb';
import { PayFrom } from './pay-from';
import { SavedDetailsBar } from './saved-details-bar';
import { TransferAmountFields } from './transfer-amount-fields';
import { TransferNotes } from './transfer-notes';
import { TransferSummary } from './transfer-summary';
import { type TBankTransferForm, useBankTransferForm } from './use-bank-transfer-form';

/** The asset's message under "Pay from", read from the form. */
function PayFromField(props: Omit<Parameters<typeof PayFrom>[0], 'error'>) {
  return <PayFrom {...props} error={useFieldMessage('assetId')} />;
}

/**
 * /bank-transfer: a request to pay AUD to the customer's bank account, funded from one of
 * their assets (product.md M11): the server converts at its rates and holds that amount,
 * as it holds a withdrawal, until staff pay it out (debited) or reject it (released).
 */
export default function BankTransferPage() {
  const saved = useBankDetails();
  const transfer = useBankTransferForm();
  const { wallets, closed, asking } = transfer;

  return (
    <div className="mx-auto w-full max-w-2xl space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold text-fg">Bank Transfer</h1>
          <CardDescription>
            Request a transfer in AUD to your Australian bank account, paid from one of your
            balances.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {closed ? (
            <Alert variant="danger" role="alert" title="Bank transfers unavailable">
              {closed}
            </Alert>
          ) : null}
          {wallets.isError && !wallets.data ? (
            <LoadFailedAlert
              title="Your balances could not be loaded"
              error={wallets.error}
              fallback="Failed to load wallet data"
              onRetry={() => void wallets.refetch()}
            />
          ) : null}

          <SavedDetailsBar
            details={saved.data?.details ?? null}
            loading={saved.isPending}
            onUse={transfer.fillSaved}
          />

          <TransferForm transfer={transfer} />
          <StepUpDialog
            open={asking !== null}
            title="Confirm your bank transfer"
            description={
              asking
                ? `A$${asking.amountAud} to ${asking.accountName}, BSB ${formatBsb(asking.bsbNumber)}, account ${asking.accountNumber}. Paid from ${ASSETS[asking.assetId].label}.`
                : ''
            }
            confirmLabel="Confirm transfer"
            pendingLabel="Submitting..."
            onCancel={() => transfer.setAsking(null)}
            onConfirm={(stepUp) => (asking ? transfer.confirm(asking, stepUp) : Promise.resolve())}
            onFailure={transfer.failed}
          />
        </CardContent>
      </Card>
    </div>
  );
}

/** The account to pay, the amount in either currency, the balance it is paid from. */
function TransferForm({ transfer }: { transfer: TBankTransferForm }) {
  const { prices, aud, usd, rate, chosen, closed, nothingToPayFrom } = transfer;
  return (
    <Form form={transfer.form} onSubmit={transfer.onSubmit} className="space-y-5">
      <FormField
        name="accountName"
        id="bank-accountName"
        label="Account name"
        className="space-y-2"
        autoComplete="name"
        maxLength={140}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <AccountNumberField id="bank-accountNumber" />
        <FormField
          name="bsbNumber"
          id="bank-bsbNumber"
          label="BSB number / sort code"
          className="space-y-2"
          inputMode="numeric"
          autoComplete="off"
          maxLength={7}
          placeholder="123-456"
          transform={formatBsb}
        />
      </div>

      <TransferAmountFields
        aud={aud}
        usd={usd}
        rate={rate}
        defaultRate={prices.data !== undefined && !prices.data.audUsd.live}
        overLimit={transfer.overLimit}
        onAmount={transfer.onAmount}
      />

      <PayFromField
        options={transfer.options}
        loading={transfer.wallets.isPending}
        value={transfer.fields.assetId}
        onChange={transfer.onAsset}
      />

      {aud !== '' && usd !== '' && !nothingToPayFrom ? (
        <TransferSummary aud={aud} usd={usd} rate={rate} option={chosen} />
      ) : null}

      <TransferNotes />

      <FormError />

      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={transfer.pending || aud === '' || closed !== null || nothingToPayFrom}
      >
        {transfer.pending ? 'Submitting...' : 'Submit Bank Transfer Request'}
      </Button>
    </Form>
  );
}
