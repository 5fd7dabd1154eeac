import { type TBankDetails, type TStepUp, ZBankDetails } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { BackLink } from '@web/components/ui/back-link';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { Form, FormField, useZodForm } from '@web/components/ui/form';
import { LoadFailedAlert } from '@web/components/ui/load-failed-alert';
import { PageSpinner } from '@web/components/ui/spinner';
import { ApiError } from '@web/lib/api-client';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useBankDetails } from '../api/get-bank-details';
import { useUpdateBankDetails } from '../api/update-bank-details';
import { AccountNumberField } from './account-number-field';
import { formatBsb } from './bsb';

type TFields = { fullName: string; bsb: string; accountNumber: string };

const SAVE_FAILED = 'Failed to save bank details. Please try again.';

function BankDetailsForm({ initial }: { initial: TBankDetails | null }) {
  const navigate = useNavigate();
  const save = useUpdateBankDetails();
  const form = useZodForm<TFields>(ZBankDetails, {
    fullName: initial?.fullName ?? '',
    bsb: formatBsb(initial?.bsb ?? ''),
    accountNumber: initial?.accountNumber ?? '',
  });
  const [asking, setAsking] = useState<TBankDetails | null>(null);

  function onSubmit(values: TFields) {
    if (save.isPending) return;
    const parsed = ZBankDetails.safeParse(values);
    if (!parsed.success) return;
    // Where payouts go changes only with a fresh second factor, asked for in the dialog.
    setAsking(parsed.data);
  }

  async function confirm(details: TBankDetails, stepUp: TStepUp) {
    const res = await save.mutateAsync({ ...details, stepUp });
    setAsking(null);
    toast.success('Bank Details Saved', {
      description: 'Your bank details have been saved for bank transfers.',
    });
    if (res.details) {
      form.reset({
        fullName: res.details.fullName,
        bsb: formatBsb(res.details.bsb),
        accountNumber: res.details.accountNumber,
      });
    }
  }

  function failed(err: unknown) {
    console.error('Saving the bank details failed', err);
    setAsking(null);
    // The server's own words when they say what to do (a hold says until when).
    const description =
      err instanceof ApiError && err.code !== 'NETWORK' && err.status < 500
        ? err.message
        : SAVE_FAILED;
    toast.error('Error', { description });
  }

  return (
    <>
      <Form form={form} onSubmit={onSubmit} className="space-y-5">
        <FormField
          name="fullName"
          id="bank-details-fullName"
          label="Full name"
          className="space-y-2"
          autoComplete="name"
          maxLength={140}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            name="bsb"
            id="bank-details-bsb"
            label="BSB"
            className="space-y-2"
            inputMode="numeric"
            autoComplete="off"
            placeholder="123-456"
            maxLength={7}
            transform={formatBsb}
          />
          <AccountNumberField id="bank-details-accountNumber" />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => void navigate('/dashboard')}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Bank Details'}
          </Button>
        </div>
      </Form>
      <StepUpDialog
        open={asking !== null}
        title="Confirm your bank details"
        description={
          asking
            ? `Bank transfers will be paid to ${asking.fullName}, BSB ${formatBsb(asking.bsb)}, account ${asking.accountNumber}.`
            : ''
        }
        confirmLabel="Save details"
        pendingLabel="Saving..."
        onCancel={() => setAsking(null)}
        onConfirm={(stepUp) => (asking ? confirm(asking, stepUp) : Promise.resolve())}
        onFailure={failed}
      />
    </>
  );
}

/** /bank-details: the customer's bank account, saved for bank transfers (product.md M9). */
export default function BankDetailsPage() {
  const details = useBankDetails();

  return (
    <div className="mx-auto w-full max-w-2xl space-y-6">
      <BackLink to="/bank-transfer">Back to Bank Transfer</BackLink>
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold text-fg">Bank Details</h1>
          <CardDescription>
            Saved securely and offered when you request a bank transfer.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {details.isPending ? (
            <PageSpinner text="Loading your bank details..." />
          ) : (
            <>
              {details.isError ? (
                <LoadFailedAlert
                  variant="warning"
                  title="Your saved details could not be loaded"
                  error={details.error}
                  fallback="Failed to load bank details"
                  onRetry={() => void details.refetch()}
                />
              ) : null}
              {/* Remounts with the saved details once they arrive (after a retry, say). */}
              <BankDetailsForm
                key={details.data ? 'loaded' : 'empty'}
                initial={details.data?.details ?? null}
              />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
