import {
  ADMIN_TRANSACTION_TYPES,
  ADMIN_TX_MSG,
  ALL_ASSET_IDS,
  ASSETS,
  type TAdminTransaction,
  type TAdminTransactionDraft,
  type TAdminTransactionEditDraft,
  type TAnyAssetId,
  type TStepUp,
  ZAdminTransactionDraft,
  ZAdminTransactionEditDraft,
  ZAnyAssetId,
} from '@coffer/shared';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { SELECT_CLASS } from '../../../components/admin/stacked-table';
import { type PickedUser, UserPicker } from '../../../components/admin/user-picker';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Input, Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { usePrices } from '../../../lib/money/get-prices';
import { useIdempotencyKey } from '../../../lib/money/idempotency';
import { useCreateAdminTransaction } from '../api/create-admin-transaction';
import { useUpdateAdminTransaction } from '../api/update-admin-transaction';
import { audFromUsd, cryptoFromUsd, priceFor, usdFromAud, usdFromCrypto } from './amounts';
import { CustomerWithEmail } from './present';
import { WithTransaction } from './with-transaction';

type TType = (typeof ADMIN_TRANSACTION_TYPES)[number];

type Fields = {
  assetId: TAnyAssetId;
  type: TType;
  cryptoAmount: string;
  usdAmount: string;
  audAmount: string;
  status: 'pending' | 'completed' | 'failed';
  date: string;
  withdrawalAddress: string;
  transactionHash: string;
  accountName: string;
  accountNumber: string;
  bsbNumber: string;
  bankCurrency: 'AUD' | 'USD';
  reason: string;
};

const TYPE_LABELS: Record<TType, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  buy: 'Buy',
  sell: 'Sell',
  bank_transfer: 'Bank transfer',
};

/** A datetime-local value (the admin's local time) for an ISO instant. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

function isAdminType(type: string): type is TType {
  return ADMIN_TRANSACTION_TYPES.some((t) => t === type);
}

/**
 * A payout the customer asked for: its destination, asset and amounts are what the customer
 * confirmed with their own second factor, so the form shows them but does not offer them.
 */
function customerPayout(tx: TAdminTransaction | null): boolean {
  return (
    tx !== null &&
    (tx.type === 'withdrawal' || tx.type === 'bank_transfer') &&
    tx.createdBy === tx.customer.id
  );
}

/** What waits for the admin's fresh second factor: the checked form, as it will be sent. */
type Asking =
  | { kind: 'create'; body: TAdminTransactionDraft; key: string }
  | { kind: 'update'; id: string; body: TAdminTransactionEditDraft };

function initialFields(tx: TAdminTransaction | null): Fields {
  const asset = ZAnyAssetId.safeParse(tx?.assetId);
  const bankCurrency = tx?.bankTransfer?.currency === 'USD' ? 'USD' : 'AUD';
  return {
    assetId: asset.success ? asset.data : 'BTC',
    type: tx && isAdminType(tx.type) ? tx.type : 'deposit',
    cryptoAmount: tx && tx.direction !== 'none' ? tx.amount : '',
    usdAmount: tx?.usdAmount ?? '',
    audAmount: tx?.audAmount ?? '',
    status: tx?.status ?? 'pending',
    date: toLocalInput(tx?.date ?? new Date().toISOString()),
    withdrawalAddress: tx?.withdrawalAddress ?? '',
    transactionHash: tx?.transactionHash ?? '',
    accountName: tx?.bankTransfer?.accountName ?? '',
    accountNumber: tx?.bankTransfer?.accountNumber ?? '',
    bsbNumber: tx?.bankTransfer?.bsbNumber ?? '',
    bankCurrency,
    reason: '',
  };
}

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The transaction to edit, read afresh on opening; null for Add Transaction. */
  transactionId: string | null;
};

/** Add Transaction and Edit Transaction: one form, every change with a reason. */
export function TransactionFormDialog({ open, onOpenChange, transactionId }: Props) {
  const done = () => onOpenChange(false);
  let form: ReactNode = null;
  if (open) {
    // Keyed so each opening starts from the row as it is now (or an empty form) again.
    form = transactionId ? (
      <WithTransaction id={transactionId}>
        {(tx) => <TransactionForm key={tx.id} transaction={tx} onDone={done} />}
      </WithTransaction>
    ) : (
      <TransactionForm key="new" transaction={null} onDone={done} />
    );
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={transactionId ? 'Edit Transaction' : 'Add Transaction'}
        description={
          transactionId
            ? 'Changes re-apply the ledger effect and are recorded in the audit log.'
            : 'A completed deposit or buy credits the wallet; a withdrawal waits for another admin.'
        }
        className="max-w-2xl"
      >
        {form}
      </DialogContent>
    </Dialog>
  );
}

function TransactionForm({
  transaction,
  onDone,
}: {
  transaction: TAdminTransaction | null;
  onDone: () => void;
}) {
  const id = useId();
  const [user, setUser] = useState<PickedUser | null>(null);
  const [f, setF] = useState<Fields>(() => initialFields(transaction));
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const locked = customerPayout(transaction);
  const prices = usePrices();
  const create = useCreateAdminTransaction();
  const update = useUpdateAdminTransaction();
  const idempotency = useIdempotencyKey();
  const busy = create.isPending || update.isPending;

  // A message about the form as it was goes away once the admin changes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the fields are the trigger
  useEffect(() => setError(null), [f, user]);
  const bank = f.type === 'bank_transfer';

  const price = (assetId: TAnyAssetId) =>
    priceFor(assetId, prices.data?.prices.find((p) => p.assetId === assetId)?.priceUsd);

  const set = <K extends keyof Fields>(key: K, value: Fields[K]) =>
    setF((prev) => ({ ...prev, [key]: value }));

  function onCrypto(value: string) {
    const usd = usdFromCrypto(f.assetId, value, price(f.assetId));
    setF((prev) => ({ ...prev, cryptoAmount: value, usdAmount: usd, audAmount: audFromUsd(usd) }));
  }
  function onUsd(value: string) {
    setF((prev) => ({
      ...prev,
      usdAmount: value,
      audAmount: audFromUsd(value),
      cryptoAmount: bank
        ? prev.cryptoAmount
        : cryptoFromUsd(prev.assetId, value, price(prev.assetId)),
    }));
  }
  function onAud(value: string) {
    const usd = usdFromAud(value);
    setF((prev) => ({
      ...prev,
      audAmount: value,
      usdAmount: usd,
      cryptoAmount: bank
        ? prev.cryptoAmount
        : cryptoFromUsd(prev.assetId, usd, price(prev.assetId)),
    }));
  }
  function onAsset(value: string) {
    const parsed = ZAnyAssetId.safeParse(value);
    if (!parsed.success) return;
    const usd = usdFromCrypto(parsed.data, f.cryptoAmount, price(parsed.data));
    setF((prev) => ({
      ...prev,
      assetId: parsed.data,
      usdAmount: usd || prev.usdAmount,
      audAmount: usd ? audFromUsd(usd) : prev.audAmount,
    }));
  }

  function body() {
    return {
      assetId: bank ? '' : f.assetId,
      type: f.type,
      cryptoAmount: bank ? '' : f.cryptoAmount,
      usdAmount: f.usdAmount,
      audAmount: f.audAmount,
      status: f.status,
      transactionDate: fromLocalInput(f.date),
      withdrawalAddress: f.type === 'withdrawal' ? f.withdrawalAddress : '',
      transactionHash: f.transactionHash,
      ...(bank
        ? {
            bank: {
              accountName: f.accountName,
              accountNumber: f.accountNumber,
              bsbNumber: f.bsbNumber,
              currency: f.bankCurrency,
            },
          }
        : {}),
      reason: f.reason,
    };
  }

  /** Checks the form as the server will, then asks for the admin's fresh second factor. */
  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (transaction) {
      const payload = body();
      const parsed = ZAdminTransactionEditDraft.safeParse(payload);
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? ADMIN_TX_MSG.requiredFields);
        return;
      }
      setAsking({ kind: 'update', id: transaction.id, body: payload });
      return;
    }
    const payload = { ...body(), userId: user?.id ?? '' };
    const parsed = ZAdminTransactionDraft.safeParse(payload);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? ADMIN_TX_MSG.requiredFields);
      return;
    }
    // The key stands for the request without its step-up: a retry with a new code is the same.
    setAsking({ kind: 'create', body: payload, key: idempotency.keyFor(payload) });
  }

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    if (asking.kind === 'update') {
      await update.mutateAsync({ id: asking.id, body: { ...asking.body, stepUp } });
      toast.success(ADMIN_TX_MSG.updated);
    } else {
      try {
        await create.mutateAsync({ body: { ...asking.body, stepUp }, key: asking.key });
      } catch (err) {
        idempotency.settle(err);
        throw err;
      }
      idempotency.settle();
      toast.success(ADMIN_TX_MSG.added);
    }
    setAsking(null);
    onDone();
  }

  function failed(err: unknown) {
    const kind = asking?.kind;
    setAsking(null);
    const message = errorMessage(err, 'Please try again.');
    setError(message);
    if (kind === 'update') toast.error(ADMIN_TX_MSG.updateFailed, { description: message });
    else toast.error(`${ADMIN_TX_MSG.addFailed}: ${message}`);
  }

  const field = (name: string) => `${id}-${name}`;
  const cryptoDigits = Math.min(6, ASSETS[f.assetId].decimals);

  return (
    <>
      {/* Beside the form, not in it: a submit inside the dialog must not submit the form. */}
      <StepUpDialog
        open={asking !== null}
        title={transaction ? 'Confirm the change' : 'Confirm the new transaction'}
        description={
          transaction
            ? 'Saving re-applies the ledger effect of this transaction.'
            : 'Adding it applies its ledger effect to the customer’s wallet.'
        }
        confirmLabel={transaction ? 'Confirm and save' : 'Confirm and add'}
        pendingLabel="Saving..."
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <form onSubmit={submit} noValidate className="space-y-4">
        {transaction ? (
          <p className="text-sm">
            <span className="text-muted">Customer: </span>
            <CustomerWithEmail tx={transaction} />
          </p>
        ) : (
          <UserPicker value={user} onChange={setUser} label="User" />
        )}
        {locked ? (
          <p className="rounded-lg border border-border bg-surface-2 p-3 text-sm text-muted">
            {ADMIN_TX_MSG.customerPayoutLocked}
          </p>
        ) : null}

        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <Label htmlFor={field('type')}>Type</Label>
            <select
              id={field('type')}
              className={SELECT_CLASS}
              value={f.type}
              onChange={(e) => {
                const next = e.target.value;
                if (isAdminType(next)) set('type', next);
              }}
            >
              {ADMIN_TRANSACTION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
          {bank ? null : (
            <div className="space-y-1.5">
              <Label htmlFor={field('asset')}>Asset</Label>
              <select
                id={field('asset')}
                className={SELECT_CLASS}
                value={f.assetId}
                disabled={locked}
                onChange={(e) => onAsset(e.target.value)}
              >
                {ALL_ASSET_IDS.map((a) => (
                  <option key={a} value={a}>
                    {ASSETS[a].label}
                  </option>
                ))}
              </select>
            </div>
          )}
          {bank ? null : (
            <div className="space-y-1.5">
              <Label htmlFor={field('crypto')}>Crypto amount ({ASSETS[f.assetId].symbol})</Label>
              <Input
                id={field('crypto')}
                inputMode="decimal"
                autoComplete="off"
                placeholder={(0).toFixed(cryptoDigits)}
                value={f.cryptoAmount}
                disabled={locked}
                onChange={(e) => onCrypto(e.target.value)}
              />
            </div>
          )}
          <div className="space-y-1.5">
            <Label htmlFor={field('usd')}>USD amount</Label>
            <Input
              id={field('usd')}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              value={f.usdAmount}
              disabled={locked}
              onChange={(e) => onUsd(e.target.value)}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={field('aud')}>AUD amount</Label>
            <Input
              id={field('aud')}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              value={f.audAmount}
              disabled={locked}
              onChange={(e) => onAud(e.target.value)}
            />
            <p className="text-xs text-muted">At 1.52 AUD per USD.</p>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={field('status')}>Status</Label>
            <select
              id={field('status')}
              className={SELECT_CLASS}
              value={f.status}
              onChange={(e) => {
                const v = e.target.value;
                if (v === 'pending' || v === 'completed' || v === 'failed') set('status', v);
              }}
            >
              <option value="pending">Pending</option>
              <option value="completed">Completed</option>
              <option value="failed">Failed</option>
            </select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={field('date')}>Date and time</Label>
            <Input
              id={field('date')}
              type="datetime-local"
              value={f.date}
              onChange={(e) => set('date', e.target.value)}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={field('hash')}>
              {bank ? 'Bank reference (optional)' : 'Transaction hash (optional)'}
            </Label>
            <Input
              id={field('hash')}
              autoComplete="off"
              value={f.transactionHash}
              onChange={(e) => set('transactionHash', e.target.value)}
            />
          </div>
        </div>

        {f.type === 'withdrawal' ? (
          <div className="space-y-1.5">
            <Label htmlFor={field('address')}>Withdrawal address</Label>
            <Input
              id={field('address')}
              autoComplete="off"
              spellCheck={false}
              value={f.withdrawalAddress}
              disabled={locked}
              onChange={(e) => set('withdrawalAddress', e.target.value)}
            />
          </div>
        ) : null}

        {bank ? (
          <fieldset disabled={locked} className="space-y-3 rounded-lg border border-border p-4">
            <legend className="px-1 text-sm font-semibold">Banking Details</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor={field('account-name')}>Account name</Label>
                <Input
                  id={field('account-name')}
                  value={f.accountName}
                  onChange={(e) => set('accountName', e.target.value)}
                />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={field('account-number')}>Account number</Label>
                <Input
                  id={field('account-number')}
                  inputMode="numeric"
                  value={f.accountNumber}
                  onChange={(e) => set('accountNumber', e.target.value)}
                />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={field('bsb')}>BSB number</Label>
                <Input
                  id={field('bsb')}
                  inputMode="numeric"
                  maxLength={6}
                  value={f.bsbNumber}
                  onChange={(e) => set('bsbNumber', e.target.value)}
                />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={field('bank-currency')}>Currency</Label>
                <select
                  id={field('bank-currency')}
                  className={SELECT_CLASS}
                  value={f.bankCurrency}
                  onChange={(e) => set('bankCurrency', e.target.value === 'USD' ? 'USD' : 'AUD')}
                >
                  <option value="AUD">AUD</option>
                  <option value="USD">USD</option>
                </select>
              </div>
            </div>
          </fieldset>
        ) : null}

        <div className="space-y-1.5">
          <Label htmlFor={field('reason')}>Reason</Label>
          <Textarea
            id={field('reason')}
            rows={2}
            placeholder="Why this change is made (kept in the audit log)"
            value={f.reason}
            onChange={(e) => set('reason', e.target.value)}
          />
        </div>

        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : null}

        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : transaction ? 'Save Changes' : 'Add Transaction'}
          </Button>
        </div>
      </form>
    </>
  );
}
