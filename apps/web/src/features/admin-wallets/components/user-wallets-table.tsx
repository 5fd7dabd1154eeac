import {
  ADMIN_WALLET_MSG,
  networkLabel,
  type TAdminWallet,
  walletBalanceUpdatedText,
} from '@coffer/shared';
import { Pencil } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { CopyValueButton } from '../../../components/admin/copy-value-button';
import { STACKED } from '../../../components/admin/stacked-table';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { formatCrypto, formatUsd, roundDecimal, toMinorOrNull } from '../../../lib/money/format';
import { useAdjustWalletBalance } from '../api/adjust-wallet-balance';
import { useUserWallets } from '../api/get-user-wallets';
import { useUpdateWalletAddress } from '../api/update-wallet-address';

/** Crypto on admin screens: 6 decimals (admin.md §9), cut toward zero. */
const CRYPTO_DIGITS = 6;

/** What a balance field may hold: digits with an optional fraction, no sign, no exponent. */
const PLAIN_DECIMAL = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

type Editing = { walletId: string; field: 'address' | 'balance' } | null;

function AddressEditor({ wallet, onDone }: { wallet: TAdminWallet; onDone: () => void }) {
  const id = useId();
  const update = useUpdateWalletAddress();
  const [address, setAddress] = useState(wallet.address ?? '');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (address.trim() === '') {
      setError(ADMIN_WALLET_MSG.addressEmpty);
      return;
    }
    setError(null);
    try {
      await update.mutateAsync({ walletId: wallet.id, address: address.trim() });
      toast.success(ADMIN_WALLET_MSG.walletAddressUpdated);
      onDone();
    } catch (err) {
      const message = errorMessage(err, ADMIN_WALLET_MSG.updateWalletAddressFailed);
      setError(message);
      toast.error(ADMIN_WALLET_MSG.updateWalletAddressFailed, { description: message });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="w-full space-y-2">
      <Label htmlFor={`${id}-address`}>
        {wallet.symbol} address ({networkLabel(wallet.network)})
      </Label>
      <Input
        id={`${id}-address`}
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        className="font-mono"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save address'}
        </Button>
        <Button variant="outline" size="sm" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function BalanceEditor({ wallet, onDone }: { wallet: TAdminWallet; onDone: () => void }) {
  const id = useId();
  const adjust = useAdjustWalletBalance();
  // The exact balance, every digit: an edit must start from what is there, not a rounding.
  const [balance, setBalance] = useState(wallet.balance);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ balance?: string; reason?: string; form?: string }>({});
  const hasHold = (toMinorOrNull(wallet.held, wallet.decimals) ?? 0n) > 0n;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    if (!PLAIN_DECIMAL.test(balance.trim())) next.balance = ADMIN_WALLET_MSG.invalidBalance;
    if (reason.trim() === '') next.reason = ADMIN_WALLET_MSG.reasonRequired;
    setErrors(next);
    if (next.balance) toast.error('Error', { description: next.balance });
    if (next.balance || next.reason) return;
    try {
      const answer = await adjust.mutateAsync({
        walletId: wallet.id,
        body: { newBalance: balance.trim(), reason: reason.trim() },
      });
      const fiat = roundDecimal(answer.wallet.usdValue, 2) ?? answer.wallet.usdValue;
      toast.success(walletBalanceUpdatedText(answer.wallet.balance, answer.wallet.symbol, fiat));
      onDone();
    } catch (err) {
      const message = errorMessage(err, ADMIN_WALLET_MSG.updateWalletBalanceFailed);
      setErrors({ form: message });
      toast.error(ADMIN_WALLET_MSG.updateWalletBalanceFailed, { description: message });
    }
  }

  const describedBy = (field: 'balance' | 'reason', hint?: string) =>
    [hint, errors[field] ? `${id}-${field}-error` : undefined].filter(Boolean).join(' ') ||
    undefined;

  return (
    <form onSubmit={onSubmit} noValidate className="w-full space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-balance`}>New balance ({wallet.symbol})</Label>
        <Input
          id={`${id}-balance`}
          inputMode="decimal"
          value={balance}
          onChange={(e) => {
            setBalance(e.target.value);
            setErrors((prev) => ({ ...prev, balance: undefined, form: undefined }));
          }}
          className="font-mono tabular-nums"
          autoComplete="off"
          autoFocus
          aria-invalid={errors.balance ? true : undefined}
          aria-describedby={describedBy('balance', `${id}-balance-hint`)}
        />
        <p id={`${id}-balance-hint`} className="text-xs text-muted">
          The difference is posted as an adjustment in the customer&apos;s history.
          {hasHold
            ? ` ${wallet.held} ${wallet.symbol} is held for pending withdrawals; the balance cannot go below it.`
            : ''}
        </p>
        {errors.balance ? (
          <p id={`${id}-balance-error`} className="text-sm text-danger">
            {errors.balance}
          </p>
        ) : null}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-reason`}>Reason (the customer sees it)</Label>
        <Input
          id={`${id}-reason`}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setErrors((prev) => ({ ...prev, reason: undefined, form: undefined }));
          }}
          maxLength={500}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={describedBy('reason')}
        />
        {errors.reason ? (
          <p id={`${id}-reason-error`} className="text-sm text-danger">
            {errors.reason}
          </p>
        ) : null}
      </div>
      {errors.form ? (
        <p role="alert" className="text-sm text-danger">
          {errors.form}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={adjust.isPending}>
          {adjust.isPending ? 'Saving...' : 'Save balance'}
        </Button>
        <Button variant="outline" size="sm" onClick={onDone} disabled={adjust.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** admin.md §2.3 User Wallets: inline edit of one address or one balance at a time. */
export function UserWalletsTable({ userId }: { userId: string }) {
  const wallets = useUserWallets(userId);
  const [editing, setEditing] = useState<Editing>(null);

  useEffect(() => {
    if (wallets.isError) {
      toast.error(ADMIN_WALLET_MSG.fetchWalletsFailed, { description: wallets.error.message });
    }
  }, [wallets.isError, wallets.error]);

  let body: ReactNode;
  if (wallets.isPending) {
    body = (
      <div className="flex justify-center py-8">
        <Spinner className="h-6 w-6" label="Loading wallets" />
      </div>
    );
  } else if (wallets.isError && !wallets.data) {
    body = (
      <div role="alert" className="space-y-3 py-4 text-sm">
        <p className="text-danger">
          {ADMIN_WALLET_MSG.fetchWalletsFailed}: {wallets.error.message}
        </p>
        <Button variant="outline" size="sm" onClick={() => void wallets.refetch()}>
          Retry
        </Button>
      </div>
    );
  } else if (wallets.data.wallets.length === 0) {
    body = <p className="py-6 text-center text-sm text-muted">{ADMIN_WALLET_MSG.noWallets}</p>;
  } else {
    body = (
      <table className={STACKED.table}>
        <thead className={STACKED.head}>
          <tr>
            <th className={STACKED.headCell}>Asset</th>
            <th className={STACKED.headCell}>Nickname</th>
            <th className={STACKED.headCell}>Address</th>
            <th className={`${STACKED.headCell} text-right`}>Balance</th>
            <th className={STACKED.headCell}>Status</th>
            <th className={STACKED.headCell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className={STACKED.body}>
          {wallets.data.wallets.map((w) => {
            const mine = editing?.walletId === w.id ? editing.field : null;
            const done = () => setEditing(null);
            return (
              <tr key={w.id} className={STACKED.row} aria-label={`${w.symbol} ${w.network} wallet`}>
                <td data-label="Asset" className={STACKED.cell}>
                  <span>
                    <span className="font-semibold text-fg">{w.symbol}</span>{' '}
                    <span className="text-muted">{networkLabel(w.network)}</span>
                  </span>
                </td>
                <td data-label="Nickname" className={STACKED.cell}>
                  {w.nickname ?? <span className="text-muted">—</span>}
                </td>
                {mine === 'address' ? (
                  <td data-label="Address" className={STACKED.wideCell} colSpan={4}>
                    <AddressEditor wallet={w} onDone={done} />
                  </td>
                ) : mine === 'balance' ? (
                  <td data-label="Balance" className={STACKED.wideCell} colSpan={4}>
                    <BalanceEditor wallet={w} onDone={done} />
                  </td>
                ) : (
                  <>
                    <td data-label="Address" className={STACKED.cell}>
                      {w.address ? (
                        <span className="flex min-w-0 items-center gap-1">
                          <span
                            translate="no"
                            className="max-w-[12rem] truncate font-mono text-xs"
                            title={w.address}
                          >
                            {w.address}
                          </span>
                          <CopyValueButton value={w.address} label={`Copy ${w.symbol} address`} />
                        </span>
                      ) : (
                        <span className="text-muted">Not set</span>
                      )}
                    </td>
                    <td data-label="Balance" className={`${STACKED.cell} md:text-right`}>
                      <span className="tabular-nums">
                        <span className="block font-medium text-fg">
                          {formatCrypto(w.balance, w.decimals, CRYPTO_DIGITS)} {w.symbol}
                        </span>
                        <span className="block text-xs text-muted">{formatUsd(w.usdValue)}</span>
                        {(toMinorOrNull(w.held, w.decimals) ?? 0n) > 0n ? (
                          <span className="block text-xs text-muted">
                            Held: {formatCrypto(w.held, w.decimals, CRYPTO_DIGITS)}
                          </span>
                        ) : null}
                      </span>
                    </td>
                    <td data-label="Status" className={STACKED.cell}>
                      <Badge variant={w.isActive ? 'success' : 'secondary'}>
                        {w.isActive ? 'Active' : 'Inactive'}
                      </Badge>
                    </td>
                    <td className={STACKED.wideCell}>
                      <div className="flex flex-wrap gap-2 md:justify-end">
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={editing !== null}
                          onClick={() => setEditing({ walletId: w.id, field: 'address' })}
                          aria-label={`Edit ${w.symbol} ${networkLabel(w.network)} address`}
                        >
                          <Pencil className="h-3.5 w-3.5" aria-hidden />
                          Address
                        </Button>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={editing !== null}
                          onClick={() => setEditing({ walletId: w.id, field: 'balance' })}
                          aria-label={`Edit ${w.symbol} ${networkLabel(w.network)} balance`}
                        >
                          <Pencil className="h-3.5 w-3.5" aria-hidden />
                          Balance
                        </Button>
                      </div>
                    </td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>User Wallets</CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
