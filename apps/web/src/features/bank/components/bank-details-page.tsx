import { type TBankDetails, type TStepUp, ZBankDetails } from '@coffer/shared';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { BackLink } from '../../../components/ui/back-link';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { LoadFailedAlert } from '../../../components/ui/load-failed-alert';
import { PageSpinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { firstErrorByField } from '../../../lib/field-errors';
import { useBankDetails } from '../api/get-bank-details';
import { useUpdateBankDetails } from '../api/update-bank-details';
import { formatBsb } from './bsb';

type Field = keyof TBankDetails;
type Errors = Partial<Record<Field, string>>;

const SAVE_FAILED = 'Failed to save bank details. Please try again.';

function BankDetailsForm({ initial }: { initial: TBankDetails | null }) {
  const navigate = useNavigate();
  const save = useUpdateBankDetails();
  const [fullName, setFullName] = useState(initial?.fullName ?? '');
  const [bsb, setBsb] = useState(formatBsb(initial?.bsb ?? ''));
  const [accountNumber, setAccountNumber] = useState(initial?.accountNumber ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [asking, setAsking] = useState<TBankDetails | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const parsed = ZBankDetails.safeParse({ fullName, bsb, accountNumber });
    if (!parsed.success) {
      setErrors(firstErrorByField<Field>(parsed.error.issues));
      return;
    }
    setErrors({});
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
      setFullName(res.details.fullName);
      setBsb(formatBsb(res.details.bsb));
      setAccountNumber(res.details.accountNumber);
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

  const describedBy = (field: Field, hint?: string) =>
    [hint, errors[field] ? `bank-details-${field}-error` : null].filter(Boolean).join(' ') ||
    undefined;

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <div className="space-y-2">
          <Label htmlFor="bank-details-fullName">Full name</Label>
          <Input
            id="bank-details-fullName"
            autoComplete="name"
            maxLength={140}
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
            aria-invalid={errors.fullName ? true : undefined}
            aria-describedby={describedBy('fullName')}
          />
          <FieldError id="bank-details-fullName-error" message={errors.fullName} />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor="bank-details-bsb">BSB</Label>
            <Input
              id="bank-details-bsb"
              inputMode="numeric"
              autoComplete="off"
              placeholder="123-456"
              maxLength={7}
              value={bsb}
              onChange={(e) => setBsb(formatBsb(e.target.value))}
              aria-invalid={errors.bsb ? true : undefined}
              aria-describedby={describedBy('bsb')}
            />
            <FieldError id="bank-details-bsb-error" message={errors.bsb} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="bank-details-accountNumber">Account number</Label>
            <Input
              id="bank-details-accountNumber"
              inputMode="numeric"
              autoComplete="off"
              maxLength={10}
              value={accountNumber}
              onChange={(e) => setAccountNumber(e.target.value.replace(/\D/g, '').slice(0, 10))}
              aria-invalid={errors.accountNumber ? true : undefined}
              aria-describedby={describedBy('accountNumber', 'bank-details-accountNumber-hint')}
            />
            <p id="bank-details-accountNumber-hint" className="text-xs text-muted">
              6 to 10 digits.
            </p>
            <FieldError id="bank-details-accountNumber-error" message={errors.accountNumber} />
          </div>
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => void navigate('/dashboard')}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Bank Details'}
          </Button>
        </div>
      </form>
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

/** /bank-details: the customer's bank account, saved for bank transfers (DEVIATIONS M9). */
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
