import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { CircleCheck } from 'lucide-react';
import { Link } from 'react-router';

/** Shown once the customer has typed the new phrase back correctly. */
export function PhraseConfirmed() {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 pt-6 text-center">
        <CircleCheck className="h-12 w-12 text-success" aria-hidden />
        <h1 className="text-2xl font-bold text-fg">Seed phrase confirmed</h1>
        <p role="status" className="max-w-md text-sm text-fg">
          Your new seed phrase is confirmed. If your account is under a security hold, it ends when
          its time has passed.
        </p>
        <Button asChild>
          <Link to="/dashboard">Continue to Dashboard</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
