import {
  KYC_MSG,
  QUEUE_PAGE_SIZE,
  type TAdminKycListQuery,
  ZAdminKycListQuery,
} from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { QueuePager } from '@web/components/admin/queue-pager';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Dialog } from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { cn } from '@web/lib/cn';
import { useRealtime } from '@web/lib/realtime';
import { useUrlQuery } from '@web/lib/use-url-query';
import { RefreshCw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useKycSubmissions } from '../api/get-kyc-submissions';
import { adminKycKeys } from '../api/keys';
import { KycFilters } from './kyc-filters';
import { KycTable } from './kyc-table';
import { ReviewDialog } from './review-dialog';

const KYC_DEFAULTS: TAdminKycListQuery = {
  q: '',
  status: 'pending',
  order: 'oldest',
  cursor: undefined,
  limit: QUEUE_PAGE_SIZE,
};

function EmptyList({ query }: { query: TAdminKycListQuery }) {
  if (query.q !== '' || query.status !== 'pending') {
    return (
      <p className="py-10 text-center text-sm text-muted">
        No submissions match the search and status.
      </p>
    );
  }
  return (
    <div className="py-10 text-center">
      <p className="font-medium text-fg">{KYC_MSG.emptyList}</p>
      <p className="text-sm text-muted">
        Nothing waits for review. Submissions appear here as customers send them.
      </p>
    </div>
  );
}

/**
 * /dashboard/admin/kyc: the review queue, a page at a time (what waits for review, oldest
 * first, unless staff choose otherwise; the choice lives in the address), and the review.
 */
export default function AdminKycPage() {
  const url = useUrlQuery(ZAdminKycListQuery, KYC_DEFAULTS);
  const { query } = url;
  const submissions = useKycSubmissions(query);
  const queryClient = useQueryClient();
  const [openId, setOpenId] = useState<string | null>(null);

  // Live refresh: any submission or review, here or elsewhere, and after a
  // reconnect (whatever happened meanwhile). Open details are read again too; documents
  // are not, unless the submission's version changed (each read is an audited view).
  useRealtime(['kyc.changed'], () => {
    void queryClient.invalidateQueries({ queryKey: adminKycKeys.lists() });
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
    body = <EmptyList query={query} />;
  } else {
    body = (
      <KycTable
        submissions={submissions.data.submissions}
        order={query.order}
        onReview={setOpenId}
      />
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
        <CardContent className="space-y-4 p-3 md:p-5">
          <KycFilters query={query} onChange={url.set} />
          {url.error ? (
            <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
              <span>This link's filters could not be read: {url.error}</span>
              <Button variant="outline" size="sm" onClick={url.reset}>
                Show the queue
              </Button>
            </div>
          ) : null}
          {body}
          {submissions.data ? (
            <QueuePager
              total={submissions.data.total}
              noun={['submission', 'submissions']}
              prevCursor={submissions.data.prevCursor}
              nextCursor={submissions.data.nextCursor}
              waiting={submissions.isPlaceholderData}
              stranded={query.cursor !== undefined && submissions.data.submissions.length === 0}
              onPage={(cursor) => url.set({ cursor })}
            />
          ) : null}
        </CardContent>
      </Card>
      <Dialog open={openId !== null} onOpenChange={(open) => !open && setOpenId(null)}>
        {openId ? <ReviewDialog id={openId} onDone={() => setOpenId(null)} /> : null}
      </Dialog>
    </div>
  );
}
