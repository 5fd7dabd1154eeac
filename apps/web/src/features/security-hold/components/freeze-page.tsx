import { LinkPage } from '@web/components/layout/link-page';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { errorMessage } from '@web/lib/api-client';
import { CheckCircle2, ShieldAlert, XCircle } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useFreezeAccount } from '../api/freeze-account';

const INVALID =
  'This link is no longer valid. If you think someone else is using your account, contact support at once.';

/**
 * /freeze?token=…, the "This wasn't me" link of a security-hold mail (product.md S10). It
 * asks before it acts: mail scanners open links on their own, and one must not freeze an
 * account the customer did not mean to freeze.
 */
export default function FreezePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const freeze = useFreezeAccount();

  return (
    <LinkPage>
      <Card>
        {freeze.isSuccess ? (
          <CardHeader className="items-center text-center">
            <CheckCircle2 className="mb-2 h-12 w-12 text-success" aria-hidden />
            <h1 className="text-xl font-semibold text-fg">Your account is frozen</h1>
            <CardDescription role="status">
              Every device was signed out and nothing can be withdrawn or paid out until Coffer
              support has reviewed your account with you. Please contact support.
            </CardDescription>
          </CardHeader>
        ) : token === '' || freeze.isError ? (
          <CardHeader className="items-center text-center">
            <XCircle className="mb-2 h-12 w-12 text-danger" aria-hidden />
            <h1 className="text-xl font-semibold text-fg">Link not valid</h1>
            <CardDescription role="alert">
              {token === '' ? INVALID : errorMessage(freeze.error, INVALID)}
            </CardDescription>
          </CardHeader>
        ) : (
          <>
            <CardHeader className="items-center text-center">
              <ShieldAlert className="mb-2 h-12 w-12 text-warning" aria-hidden />
              <h1 className="text-xl font-semibold text-fg">This wasn't me</h1>
              <CardDescription>
                Freezing your account signs out every device and stops all withdrawals and bank
                transfers until Coffer support has reviewed it with you.
              </CardDescription>
            </CardHeader>
            <CardContent className="flex justify-center">
              <Button
                variant="danger"
                disabled={freeze.isPending}
                onClick={() => freeze.mutate(token)}
              >
                {freeze.isPending ? 'Freezing...' : 'Freeze my account'}
              </Button>
            </CardContent>
          </>
        )}
      </Card>
    </LinkPage>
  );
}
