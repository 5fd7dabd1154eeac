import { useOutletContext } from 'react-router';
import { Card, CardContent } from '../../../components/ui/card';

/** The part of the portal layout's outlet context this page reads. */
type PortalContext = { user: { email: string } | null } | undefined;

/** /dashboard: the welcome only, until balances are backed by the ledger. */
export default function DashboardPage() {
  const email = useOutletContext<PortalContext>()?.user?.email;

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-fg">Welcome back</h1>
        {email ? <p className="break-all text-muted">{email}</p> : null}
      </header>
      <Card>
        <CardContent className="pt-5">
          <p className="text-sm text-muted">
            Wallet balances, deposits and staking are not available in the portal yet, so no figures
            are shown here.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
