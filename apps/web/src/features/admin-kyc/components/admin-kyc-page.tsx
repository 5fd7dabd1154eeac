import { formatDateTime, KYC_MSG } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { STACKED } from '@web/components/admin/stacked-table';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Dialog } from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { cn } from '@web/lib/cn';
import { useRealtime } from '@web/lib/realtime';
import { formatDistanceToNow } from 'date-fns';
import { Eye, RefreshCw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { kycSubmissionsQueryOptions, useKycSubmissions } from '../api/get-kyc-submissions';
import { adminKycKeys } from '../api/keys';
import { KycBadge } from './kyc-badge';
import { ReviewDialog } from './review-dialog';

/** /dashboard/admin/kyc: every submission, newest first, and its review. */
export default function AdminKycPage() {
  const submissions = useKycSubmissions();
  const queryClient = useQueryClient();
  const [openId, setOpenId] = useState<string | null>(null);

  // Live refresh: any submission or review, here or elsewhere, and after a
  // reconnect (whatever happened meanwhile). Open details are read again too; documents
  // are not, unless the submission's version changed (each read is an audited view).
  useRealtime(['kyc.changed'], () => {
    void queryClient.invalidateQueries({ queryKey: kycSubmissionsQueryOptions().queryKey });
    void queryClient.invalidateQueries({ queryKey: adminKycKeys.details() });
  });

  useEffect(() => {
    if (submissions.isError) toast.error('Error', { description: KYC_MSG.loadFailed });
  }, [submissions.isError]);

  let body: ReactNode;
  if (submissions.isPending) {
    body = (
      <div className="flex justify-center py-10">
        <Spinner className="h-6 w-6" label="Loading KYC submissions" />
      </div>
    );
  } else if (submissions.isError && !submissions.data) {
    body = (
      <div role="alert" className="space-y-3 py-6 text-sm">
        <p className="text-danger">{KYC_MSG.loadFailed}</p>
        <Button variant="outline" size="sm" onClick={() => void submissions.refetch()}>
          Retry
        </Button>
      </div>
    );
  } else if (submissions.data.submissions.length === 0) {
    body = (
      <div className="py-10 text-center">
        <p className="font-medium text-fg">{KYC_MSG.emptyList}</p>
        <p className="text-sm text-muted">Submissions appear here as customers send them.</p>
      </div>
    );
  } else {
    body = (
      <table className={STACKED.table}>
        <thead className={STACKED.head}>
          <tr>
            <th className={STACKED.headCell}>User</th>
            <th className={STACKED.headCell}>Full Name</th>
            <th className={STACKED.headCell}>Phone</th>
            <th className={STACKED.headCell}>Status</th>
            <th className={STACKED.headCell}>Submitted</th>
            <th className={STACKED.headCell}>Actions</th>
          </tr>
        </thead>
        <tbody className={STACKED.body}>
          {submissions.data.submissions.map((s) => {
            const submitted = new Date(s.submittedAt);
            return (
              <tr key={s.id} className={STACKED.row}>
                <td data-label="User" className={STACKED.cell}>
                  <span className="min-w-0 truncate" title={s.email}>
                    {s.email}
                  </span>
                </td>
                <td data-label="Full Name" className={cn(STACKED.cell, 'font-medium')}>
                  <span className="min-w-0 break-words">{s.fullName}</span>
                </td>
                <td data-label="Phone" className={cn(STACKED.cell, 'whitespace-nowrap')}>
                  {s.phoneNumber}
                </td>
                <td data-label="Status" className={STACKED.cell}>
                  <KycBadge status={s.status} />
                </td>
                <td data-label="Submitted" className={cn(STACKED.cell, 'whitespace-nowrap')}>
                  <time dateTime={s.submittedAt} title={formatDateTime(s.submittedAt)}>
                    {formatDistanceToNow(submitted, { addSuffix: true })}
                  </time>
                </td>
                <td className={STACKED.wideCell}>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setOpenId(s.id)}
                    aria-label={`Review KYC submission of ${s.fullName}`}
                    className="max-md:w-full"
                  >
                    <Eye className="h-3.5 w-3.5" aria-hidden />
                    Review
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    );
  }

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold text-fg">KYC Submissions</h1>
          <p className="text-sm text-muted">
            Review customers' identity documents. Every document you open is recorded in the audit
            log.
          </p>
        </div>
        <Button
          variant="outline"
          onClick={() => void submissions.refetch()}
          disabled={submissions.isFetching}
        >
          <RefreshCw
            className={cn('h-4 w-4', submissions.isFetching && 'animate-spin')}
            aria-hidden
          />
          Refresh
        </Button>
      </header>
      <Card>
        <CardContent className="p-3 md:p-5">{body}</CardContent>
      </Card>
      <Dialog open={openId !== null} onOpenChange={(open) => !open && setOpenId(null)}>
        {openId ? <ReviewDialog id={openId} onDone={() => setOpenId(null)} /> : null}
      </Dialog>
    </div>
  );
}
