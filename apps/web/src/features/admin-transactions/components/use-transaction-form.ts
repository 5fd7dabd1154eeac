import {
  ADMIN_TX_MSG,
  type TAdminTransaction,
  type TAdminTransactionDraft,
  type TAdminTransactionEditDraft,
  type TProposedResponse,
  type TStepUp,
  ZAdminTransactionDraft,
  ZAdminTransactionEditDraft,
} from '@coffer/shared';
import { showServerError, useZodForm } from '@web/components/ui/form';
import { errorMessage } from '@web/lib/api-client';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { tellProposed } from '@web/lib/staff';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useCreateAdminTransaction } from '../api/create-admin-transaction';
import { useUpdateAdminTransaction } from '../api/update-admin-transaction';
import {
  customerPayout,
  initialFields,
  type TTransactionFields,
  transactionBodyOf,
} from './transaction-fields';

/** What waits for the admin's fresh second factor: the checked form, as it will be sent. */
type Asking =
  | { kind: 'create'; body: TAdminTransactionDraft; key: string }
  | { kind: 'update'; id: string; body: TAdminTransactionEditDraft };

/**
 * Add Transaction and Edit Transaction: the form checked as the server will check it, then
 * the request confirmed with the admin's step-up.
 */
export function useTransactionForm(transaction: TAdminTransaction | null, onDone: () => void) {
  const [asking, setAsking] = useState<Asking | null>(null);
  const create = useCreateAdminTransaction();
  const update = useUpdateAdminTransaction();
  const idempotency = useIdempotencyKey();

  /** The request as it will be sent: an edit keeps its customer, a new one names one. */
  const requestOf = (f: TTransactionFields) =>
    transaction ? transactionBodyOf(f) : { ...transactionBodyOf(f), userId: f.user?.id ?? '' };
  // The form checks what the server will, and shows its first message above the buttons.
  const form = useZodForm<TTransactionFields>(null, initialFields(transaction), {
    check: (f) => {
      const schema = transaction ? ZAdminTransactionEditDraft : ZAdminTransactionDraft;
      const parsed = schema.safeParse(requestOf(f));
      if (parsed.success) return {};
      return { form: parsed.error.issues[0]?.message ?? ADMIN_TX_MSG.requiredFields };
    },
  });

  // A message about the form as it was goes away once the admin changes it.
  useEffect(() => {
    const watching = form.watch(() => form.clearErrors('root'));
    return () => watching.unsubscribe();
  }, [form]);

  /** Asks for the admin's fresh second factor for the checked request. */
  function submit(values: TTransactionFields) {
    if (transaction) {
      const body = transactionBodyOf(values);
      if (!ZAdminTransactionEditDraft.safeParse(body).success) return;
      setAsking({ kind: 'update', id: transaction.id, body });
      return;
    }
    const body = { ...transactionBodyOf(values), userId: values.user?.id ?? '' };
    if (!ZAdminTransactionDraft.safeParse(body).success) return;
    // The key stands for the request without its step-up: a retry with a new code is the same.
    setAsking({ kind: 'create', body, key: idempotency.keyFor(body) });
  }

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    if (asking.kind === 'update') {
      tellProposed(await update.mutateAsync({ id: asking.id, body: { ...asking.body, stepUp } }));
    } else {
      let answer: TProposedResponse;
      try {
        answer = await create.mutateAsync({ body: { ...asking.body, stepUp }, key: asking.key });
      } catch (err) {
        idempotency.settle(err);
        throw err;
      }
      idempotency.settle();
      tellProposed(answer);
    }
    setAsking(null);
    onDone();
  }

  function failed(err: unknown) {
    const kind = asking?.kind;
    setAsking(null);
    const message = showServerError(form, err, (e) => errorMessage(e, 'Please try again.'));
    if (kind === 'update') toast.error(ADMIN_TX_MSG.updateFailed, { description: message });
    else toast.error(`${ADMIN_TX_MSG.addFailed}: ${message}`);
  }

  return {
    form,
    locked: customerPayout(transaction),
    busy: create.isPending || update.isPending,
    asking: asking !== null,
    cancelAsking: () => setAsking(null),
    submit,
    confirm,
    failed,
  };
}
