import {
  ADMIN_WALLET_MSG,
  assetById,
  formatAssetAmount,
  formatUsd,
  networkLabel,
  type TAdminWallet,
  type TStepUp,
  toMinorOrNull,
} from '@coffer/shared';
import { ActiveBadge } from '@web/components/admin/active-badge';
import { CopyableAddress } from '@web/components/admin/copyable-address';
import { EditButton } from '@web/components/admin/edit-button';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { STACKED } from '@web/components/admin/stacked-table';
import { ActionsCell, StackedCell, StackedTable } from '@web/components/admin/stacked-table-parts';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import {
  Form,
  FormError,
  FormField,
  showServerError,
  type TFieldControl,
  type TFormErrors,
  useZodForm,
} from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { errorMessage } from '@web/lib/api-client';
import { tellProposed, useCan } from '@web/lib/staff';
import { type ChangeEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { useAdjustWalletBalance } from '../api/adjust-wallet-balance';
import { useUserWallets } from '../api/get-user-wallets';
import { useUpdateWalletAddress } from '../api/update-wallet-address';
import { AddressEditForm } from './address-edit-form';
import { EditFormActions } from './edit-form-actions';
import { TableCard } from './table-card';

/** An amount of the wallet's asset as every screen shows it. */
function amountOf(wallet: TAdminWallet, amount: string, symbol = true): string {
  const asset = assetById(wallet.assetId);
  if (!asset) return symbol ? `${amount} ${wallet.symbol}` : amount;
  return formatAssetAmount(asset, amount, { symbol });
}

/** What a balance field may hold: digits with an optional fraction, no sign, no exponent. */
const PLAIN_DECIMAL = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

type Editing = { walletId: string; field: 'address' | 'balance' } | null;

function AddressEditor({ wallet, onDone }: { wallet: TAdminWallet; onDone: () => void }) {
  const update = useUpdateWalletAddress();
  return (
    <AddressEditForm
      label={`${wallet.symbol} address (${networkLabel(wallet.network)})`}
      initial={wallet.address ?? ''}
      save={(address, _active, stepUp) =>
        update.mutateAsync({ walletId: wallet.id, body: { address, stepUp } })
      }
      describe={(address) =>
        `Propose ${address} as this ${wallet.symbol} wallet's address: it applies when another staff member approves it.`
      }
      pending={update.isPending}
      saveText="Save address"
      failedText={ADMIN_WALLET_MSG.updateWalletAddressFailed}
      onDone={onDone}
    />
  );
}

type TBalanceFields = { balance: string; reason: string };

function BalanceEditor({ wallet, onDone }: { wallet: TAdminWallet; onDone: () => void }) {
  const id = useId();
  const adjust = useAdjustWalletBalance();
  // The exact balance, every digit: an edit must start from what is there, not a rounding.
  const form = useZodForm<TBalanceFields>(
    null,
    { balance: wallet.balance, reason: '' },
    {
      check: ({ balance, reason }) => {
        const found: TFormErrors<TBalanceFields> = {};
        if (!PLAIN_DECIMAL.test(balance.trim())) found.balance = ADMIN_WALLET_MSG.invalidBalance;
        if (reason.trim() === '') found.reason = ADMIN_WALLET_MSG.reasonRequired;
        return found;
      },
    },
  );
  const balance = form.watch('balance');
  // A checked edit waits for the admin's fresh second factor (step-up).
  const [asking, setAsking] = useState(false);
  const hasHold = (toMinorOrNull(wallet.held, wallet.decimals) ?? 0n) > 0n;

  /** A balance that is no number is also told in a toast. */
  function refused(errors: TFormErrors<TBalanceFields>) {
    if (errors.balance) toast.error('Error', { description: errors.balance });
  }

  async function confirm(stepUp: TStepUp) {
    const values = form.getValues();
    const answer = await adjust.mutateAsync({
      walletId: wallet.id,
      body: { newBalance: values.balance.trim(), reason: values.reason.trim(), stepUp },
    });
    setAsking(false);
    // Proposed: the balance stays as it is until another staff member approves the edit.
    tellProposed(answer);
    onDone();
  }

  function failed(err: unknown) {
    setAsking(false);
    const message = showServerError(form, err, (e) =>
      errorMessage(e, ADMIN_WALLET_MSG.updateWalletBalanceFailed),
    );
    toast.error(ADMIN_WALLET_MSG.updateWalletBalanceFailed, { description: message });
  }

  /** A new value clears its field's message and the server's refusal. */
  const clearing =
    (name: keyof TBalanceFields, control: TFieldControl) => (e: ChangeEvent<HTMLInputElement>) => {
      control.onChange(e);
      form.clearErrors(name);
      form.clearErrors('root');
    };

  return (
    <>
      <StepUpDialog
        open={asking}
        title="Confirm the balance edit"
        description={`Propose setting this ${wallet.symbol} wallet to ${balance.trim()} ${wallet.symbol}: when another staff member approves, the difference is posted as an adjustment.`}
        confirmLabel="Propose"
        pendingLabel="Proposing..."
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Form
        form={form}
        onSubmit={() => setAsking(true)}
        onInvalid={refused}
        className="w-full space-y-3"
      >
        <FormField
          name="balance"
          id={`${id}-balance`}
          label={`New balance (${wallet.symbol})`}
          className="space-y-1.5"
          hint={
            <>
              The difference is posted as an adjustment in the customer&apos;s history.
              {hasHold
                ? ` ${wallet.held} ${wallet.symbol} is held for pending withdrawals; the balance cannot go below it.`
                : ''}
            </>
          }
        >
          {(control) => (
            <Input
              {...control}
              onChange={clearing('balance', control)}
              inputMode="decimal"
              className="font-mono tabular-nums"
              autoComplete="off"
              autoFocus
            />
          )}
        </FormField>
        <FormField
          name="reason"
          id={`${id}-reason`}
          label="Reason (the customer sees it)"
          className="space-y-1.5"
        >
          {(control) => (
            <Input {...control} onChange={clearing('reason', control)} maxLength={500} />
          )}
        </FormField>
        <FormError />
        <EditFormActions saveText="Save balance" pending={adjust.isPending} onCancel={onDone} />
      </Form>
    </>
  );
}

/** User Wallets: inline edit of one address or one balance at a time. */
export function UserWalletsTable({ userId }: { userId: string }) {
  const wallets = useUserWallets(userId);
  const [editing, setEditing] = useState<Editing>(null);
  // Only a role that proposes money changes is offered the edits; the server checks anyway.
  const mayPropose = useCan()('money.propose');

  useEffect(() => {
    if (wallets.isError) {
      toast.error(ADMIN_WALLET_MSG.fetchWalletsFailed, { description: wallets.error.message });
    }
  }, [wallets.isError, wallets.error]);

  let body: ReactNode;
  if (wallets.isPending) {
    body = <LoadingState label="Loading wallets" className="py-8" />;
  } else if (wallets.isError && !wallets.data) {
    body = (
      <LoadError
        message={`${ADMIN_WALLET_MSG.fetchWalletsFailed}: ${wallets.error.message}`}
        onRetry={() => void wallets.refetch()}
        className="py-4"
      />
    );
  } else if (wallets.data.wallets.length === 0) {
    body = <p className="py-6 text-center text-sm text-muted">{ADMIN_WALLET_MSG.noWallets}</p>;
  } else {
    body = (
      <StackedTable
        columns={['Asset', 'Nickname', 'Address', 'Balance', 'Status']}
        alignRight={['Balance']}
      >
        {wallets.data.wallets.map((w) => {
          const mine = editing?.walletId === w.id ? editing.field : null;
          const done = () => setEditing(null);
          return (
            <tr
              key={w.id}
              className={STACKED.row}
              aria-label={`${w.symbol} ${networkLabel(w.network)} wallet`}
            >
              <StackedCell label="Asset">
                <span>
                  <span className="font-semibold text-fg">{w.symbol}</span>{' '}
                  <span className="text-muted">{networkLabel(w.network)}</span>
                </span>
              </StackedCell>
              <StackedCell label="Nickname">
                {w.nickname ?? <span className="text-muted">—</span>}
              </StackedCell>
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
                  <StackedCell label="Address">
                    {w.address ? (
                      <CopyableAddress
                        address={w.address}
                        symbol={w.symbol}
                        className="max-w-[12rem]"
                      />
                    ) : (
                      <span className="text-muted">Not set</span>
                    )}
                  </StackedCell>
                  <StackedCell label="Balance" className="md:text-right">
                    <span className="tabular-nums">
                      <span className="block font-medium text-fg">{amountOf(w, w.balance)}</span>
                      <span className="block text-xs text-muted">{formatUsd(w.usdValue)}</span>
                      {(toMinorOrNull(w.held, w.decimals) ?? 0n) > 0n ? (
                        <span className="block text-xs text-muted">
                          Held: {amountOf(w, w.held, false)}
                        </span>
                      ) : null}
                    </span>
                  </StackedCell>
                  <StackedCell label="Status">
                    <ActiveBadge active={w.isActive} />
                  </StackedCell>
                  <ActionsCell>
                    {mayPropose ? (
                      <>
                        <EditButton
                          label={`Edit ${w.symbol} ${networkLabel(w.network)} address`}
                          disabled={editing !== null}
                          onClick={() => setEditing({ walletId: w.id, field: 'address' })}
                        >
                          Address
                        </EditButton>
                        <EditButton
                          label={`Edit ${w.symbol} ${networkLabel(w.network)} balance`}
                          disabled={editing !== null}
                          onClick={() => setEditing({ walletId: w.id, field: 'balance' })}
                        >
                          Balance
                        </EditButton>
                      </>
                    ) : null}
                  </ActionsCell>
                </>
              )}
            </tr>
          );
        })}
      </StackedTable>
    );
  }

  return <TableCard title="User Wallets">{body}</TableCard>;
}
