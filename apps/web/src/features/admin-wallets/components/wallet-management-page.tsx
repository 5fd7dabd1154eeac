import { ADMIN_WALLET_MSG } from '@coffer/shared';
import {
  type PickedUser,
  UserPicker,
  userDisplayName,
  userEmailBesideName,
} from '@web/components/admin/user-picker';
import { Card, CardContent } from '@web/components/ui/card';
import { CustomerText } from '@web/components/ui/customer-text';
import { EmailText } from '@web/components/ui/email-text';
import { Wallet } from 'lucide-react';
import { useState } from 'react';
import { UserDepositAddressesTable } from './user-deposit-addresses-table';
import { UserWalletsTable } from './user-wallets-table';

/** /dashboard/admin/wallet-management. */
export default function WalletManagementPage() {
  const [user, setUser] = useState<PickedUser | null>(null);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-fg">Wallet Management</h1>
        <p className="text-sm text-muted">
          Edit a customer&apos;s wallet addresses and balances. A balance change is posted as an
          adjustment with its reason, visible in the customer&apos;s history.
        </p>
      </header>

      <Card>
        <CardContent className="pt-5">
          <UserPicker value={user} onChange={setUser} label="Select User" />
          {user ? (
            <p className="mt-2 text-sm text-muted">
              Managing <CustomerText text={userDisplayName(user)} className="font-medium text-fg" />
              {userEmailBesideName(user) ? (
                <>
                  {' '}
                  (<EmailText email={user.email} />)
                </>
              ) : (
                ''
              )}
            </p>
          ) : null}
        </CardContent>
      </Card>

      {user ? (
        // Keyed by user: an edit in progress never carries over to another customer.
        <div key={user.id} className="space-y-6">
          <UserWalletsTable userId={user.id} />
          <UserDepositAddressesTable userId={user.id} />
        </div>
      ) : (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-12 text-center text-muted">
            <Wallet className="h-10 w-10" aria-hidden />
            <p>{ADMIN_WALLET_MSG.selectUser}</p>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
