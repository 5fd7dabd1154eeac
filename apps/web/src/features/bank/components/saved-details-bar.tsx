import type { TBankDetails } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { BookUser } from 'lucide-react';
import { Link } from 'react-router';
import { formatBsb } from './bsb';

/** The customer's saved bank details above the form, filled in with one click. */
export function SavedDetailsBar({
  details,
  loading,
  onUse,
}: {
  details: TBankDetails | null;
  loading: boolean;
  onUse: (details: TBankDetails) => void;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-border bg-surface-2 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3 text-sm">
        <BookUser className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden />
        {details ? (
          <p className="text-fg">
            Saved details: {details.fullName}, BSB {formatBsb(details.bsb)}, account ending{' '}
            {details.accountNumber.slice(-4)}
          </p>
        ) : (
          <p className="text-muted">
            {loading
              ? 'Loading your saved bank details...'
              : 'Save your bank details once and fill them in with one click.'}
          </p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2 pl-7 sm:pl-0">
        {details ? (
          <Button
            size="sm"
            variant="secondary"
            className="whitespace-nowrap"
            onClick={() => onUse(details)}
          >
            Use saved details
          </Button>
        ) : null}
        <Button asChild size="sm" variant="outline" className="whitespace-nowrap">
          <Link to="/bank-details">{details ? 'Edit bank details' : 'Save bank details'}</Link>
        </Button>
      </div>
    </div>
  );
}
