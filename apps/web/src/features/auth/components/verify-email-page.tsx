import { MSG } from '@coffer/shared';
import { LinkPage } from '@web/components/layout/link-page';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useVerifyEmail } from '../api/verify-email';

const REDIRECT_MS = 2000;

/**
 * /verify-email?token=…, the link from the confirmation e-mail. The token works once, so
 * it is posted once per visit, even when StrictMode runs effects twice in development.
 */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  const posted = useRef(false);

  useEffect(() => {
    if (posted.current || token === '') return;
    posted.current = true;
    mutate(token, {
      onError: (err) => console.error('E-mail verification failed', err),
    });
  }, [mutate, token]);

  // Then on to the dashboard; the gate sends a signed-out visitor through sign-in first.
  useEffect(() => {
    if (!verify.isSuccess) return;
    const timer = setTimeout(() => void navigate('/dashboard', { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [verify.isSuccess, navigate]);

  const failed = token === '' || verify.isError;
  const message =
    token === ''
      ? MSG.verificationLinkInvalid
      : errorMessage(verify.error, MSG.verificationLinkInvalid);

  return (
    <LinkPage>
      <Card>
        {failed ? (
          <>
            <CardHeader className="items-center text-center">
              <XCircle className="mb-2 h-12 w-12 text-danger" aria-hidden />
              <h1 className="text-xl font-semibold text-fg">E-mail not confirmed</h1>
              <CardDescription role="alert">{message}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col items-center gap-3 text-center">
              <p className="text-sm text-muted">
                If your address is already confirmed, just sign in. If not, sign in to ask for a new
                confirmation link.
              </p>
              <Button asChild className="w-full sm:w-auto">
                <Link to="/auth">Go to Sign In</Link>
              </Button>
            </CardContent>
          </>
        ) : verify.isSuccess ? (
          <>
            <CardHeader className="items-center text-center">
              <CheckCircle2 className="mb-2 h-12 w-12 text-success" aria-hidden />
              <h1 className="text-xl font-semibold text-fg">E-mail confirmed</h1>
              <CardDescription role="status">
                Your e-mail address is confirmed. Taking you to your dashboard...
              </CardDescription>
            </CardHeader>
            <CardContent className="flex justify-center">
              <Button asChild variant="outline">
                <Link to="/dashboard" replace>
                  Continue now
                </Link>
              </Button>
            </CardContent>
          </>
        ) : (
          <CardHeader className="items-center py-10 text-center">
            <Spinner className="mb-2 h-10 w-10" label="Confirming your e-mail address" />
            <h1 className="text-xl font-semibold text-fg">Confirming your e-mail address...</h1>
            <CardDescription>This takes a moment.</CardDescription>
          </CardHeader>
        )}
      </Card>
    </LinkPage>
  );
}
