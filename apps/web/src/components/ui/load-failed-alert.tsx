import { errorMessage } from '@web/lib/api-client';
import { RefreshCw } from 'lucide-react';
import { Alert } from './alert';
import { Button } from './button';

/** Something the page needs could not be loaded: what failed, why, and a way to try again. */
export function LoadFailedAlert({
  title,
  error,
  fallback,
  onRetry,
  variant = 'danger',
}: {
  title: string;
  error: unknown;
  /** What to say when the error carries no message of its own. */
  fallback: string;
  onRetry: () => void;
  variant?: 'warning' | 'danger';
}) {
  return (
    <Alert variant={variant} role="alert" title={title}>
      <p>{errorMessage(error, fallback)}</p>
      <Button variant="outline" size="sm" className="mt-2" onClick={onRetry}>
        <RefreshCw className="h-4 w-4" aria-hidden />
        Try again
      </Button>
    </Alert>
  );
}
