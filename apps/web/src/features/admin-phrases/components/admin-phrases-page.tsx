import { SummaryCard, SummaryGrid } from '@web/components/admin/summary-cards';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Pager } from '@web/components/ui/pager';
import { PageSpinner, Spinner } from '@web/components/ui/spinner';
import { useSession } from '@web/lib/session';
import { CalendarClock, KeyRound, PenLine, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { PHRASES_PAGE_SIZE, useAdminRecoveryPhrases } from '../api/get-admin-recovery-phrases';
import { PhrasesTable } from './phrases-table';
import { UsersWithoutPhrase } from './users-without-phrase';

/** /admin/recovery-phrases: metadata only. */
export default function AdminPhrasesPage() {
  const session = useSession();
  if (session.isPending) return <PageSpinner />;
  if (!session.data?.user.isAdmin) {
    return (
      <p role="alert" className="mx-auto max-w-xl p-8 text-center text-lg text-fg">
        You don't have permission to access this page.
      </p>
    );
  }
  return <PhrasesOverview />;
}

function PhrasesOverview() {
  const [page, setPage] = useState(1);
  const phrases = useAdminRecoveryPhrases(page);

  if (phrases.isPending) return <PageSpinner text="Loading recovery phrases" />;
  if (phrases.isError) {
    return (
      <div role="alert" className="space-y-1 p-8 text-center">
        <p className="font-semibold text-danger">Error loading recovery phrases</p>
        <p className="text-sm text-muted">{phrases.error.message}</p>
      </div>
    );
  }
  const { summary, withoutPhrase, withoutPhraseTotal } = phrases.data;
  const pages = Math.max(1, Math.ceil(summary.total / PHRASES_PAGE_SIZE));

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-fg">Recovery Phrases</h1>
        <p className="text-sm text-muted">
          Who has a recovery phrase, of which type, and since when.
        </p>
      </header>

      <Alert variant="info" title="Phrases stay with their owners">
        A recovery phrase can reset a password and take over an account, so no one at Coffer can
        view, copy or set one. Each customer's phrase is created once, by Coffer, and only its owner
        can read it after re-entering their password.
      </Alert>

      <SummaryGrid>
        <SummaryCard title="Total Phrases" value={summary.total} icon={KeyRound} />
        <SummaryCard title="Generated" value={summary.generated} icon={ShieldCheck} />
        <SummaryCard title="Custom" value={summary.custom} icon={PenLine} />
        <SummaryCard title="This Week" value={summary.thisWeek} icon={CalendarClock} />
      </SummaryGrid>

      <Card>
        <CardHeader>
          <CardTitle>Wallet Seed Phrases</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {phrases.data.phrases.length === 0 ? (
            <p className="py-6 text-center text-muted">No wallet seed phrases found</p>
          ) : (
            <PhrasesTable phrases={phrases.data.phrases} />
          )}
          {summary.total > PHRASES_PAGE_SIZE ? (
            <Pager
              status={`Page ${page} of ${pages}`}
              canPrevious={page > 1}
              canNext={page < pages}
              onPrevious={() => setPage((p) => p - 1)}
              onNext={() => setPage((p) => p + 1)}
            />
          ) : null}
          {phrases.isFetching ? <Spinner label="Refreshing" /> : null}
        </CardContent>
      </Card>

      <UsersWithoutPhrase users={withoutPhrase} total={withoutPhraseTotal} />
    </div>
  );
}
