import {
  ASSETS,
  assetById,
  compareAmounts,
  formatUsd,
  MONEY_MSG,
  mulPrice,
  type TAsset,
  type TTransaction,
  type TWithdrawalDraft,
  toMinorOrNull,
} from '@coffer/shared';
import type { StepUpDialogProps } from '@web/components/step-up/step-up-dialog';
import { useMoneyStatus } from '@web/lib/money/get-money-status';
import { useStaking } from '@web/lib/money/get-staking';
import { useWallets } from '@web/lib/money/get-wallets';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { useState } from 'react';
import { useCreateWithdrawal } from '../api/create-withdrawal';
import type { TWithdrawalFunds } from './check-withdrawal';
import { withdrawalErrorText } from './withdrawal-error-text';

/** One error toast at a time for withdrawals; a later success dismisses it. */
export const WITHDRAWAL_ERROR_TOAST = 'withdrawal-error';

/**
 * What both withdrawal pages need: the funds per asset, whether withdrawals are open, and a
 * submit that sends one idempotency key per request (the same one for a retry).
 */
export function useWithdrawal() {
  const wallets = useWallets();
  const staking = useStaking();
  const status = useMoneyStatus();
  const create = useCreateWithdrawal();
  const idempotency = useIdempotencyKey();

  function fundsOf(asset: TAsset | undefined): TWithdrawalFunds | null {
    if (!asset) return null;
    const wallet = wallets.data?.wallets.find((w) => w.assetId === asset.id);
    if (!wallet) return wallets.data ? { available: 0n, pendingStaking: 0n } : null;
    const pending =
      asset.id === 'ETH' && staking.data
        ? (toMinorOrNull(staking.data.pendingAccrued, ASSETS.ETH.decimals) ?? 0n)
        : 0n;
    return {
      available: toMinorOrNull(wallet.available, wallet.decimals) ?? 0n,
      pendingStaking: pending,
    };
  }

  /** Why a withdrawal cannot be requested now, or null. */
  const closedReason: string | null = status.data?.maintenanceMode
    ? MONEY_MSG.maintenance
    : status.data && !status.data.withdrawalsEnabled
      ? MONEY_MSG.withdrawalsDisabled
      : null;

  /**
   * A warning when the request looks larger than what is left of today's limit. The server
   * decides with its own price; this only saves a pointless submit.
   */
  function limitWarning(asset: TAsset | undefined, amountMinor: bigint | null): string | null {
    if (!asset || amountMinor === null || !status.data) return null;
    const price = wallets.data?.wallets.find((w) => w.assetId === asset.id)?.priceUsd;
    if (!price) return null;
    const usd = mulPrice(amountMinor, asset.decimals, price);
    if (compareAmounts(usd, status.data.remainingTodayUsd) <= 0) return null;
    return `This withdrawal is worth about ${formatUsd(usd)}, more than the ${formatUsd(status.data.remainingTodayUsd)} you can still withdraw today.`;
  }

  type Handlers = { onSuccess: (tx: TTransaction) => void; onError: (text: string) => void };
  const [asking, setAsking] = useState<{ draft: TWithdrawalDraft; handlers: Handlers } | null>(
    null,
  );

  /** Asks for the fresh second factor (step-up); the request leaves with it. */
  function submit(draft: TWithdrawalDraft, handlers: Handlers) {
    if (create.isPending) return;
    setAsking({ draft, handlers });
  }

  /** The step-up dialog's props; the pages render it. */
  const stepUp: StepUpDialogProps = {
    open: asking !== null,
    title: 'Confirm your withdrawal',
    description: asking
      ? `${asking.draft.amount} ${assetById(asking.draft.assetId)?.symbol ?? asking.draft.assetId} to ${asking.draft.address}`
      : '',
    confirmLabel: 'Confirm withdrawal',
    pendingLabel: 'Processing...',
    onCancel: () => setAsking(null),
    onConfirm: async (proof) => {
      if (!asking) return;
      // One key per request, the same for a retry: the key stands for the request without
      // its code, so a retry with a new code is still the same request.
      const idempotencyKey = idempotency.keyFor(asking.draft);
      try {
        const res = await create.mutateAsync({
          body: { ...asking.draft, stepUp: proof },
          idempotencyKey,
        });
        idempotency.settle();
        setAsking(null);
        asking.handlers.onSuccess(res.transaction);
      } catch (err) {
        console.error('The withdrawal request failed', err);
        idempotency.settle(err);
        throw err;
      }
    },
    onFailure: (err) => {
      const handlers = asking?.handlers;
      setAsking(null);
      handlers?.onError(withdrawalErrorText(err));
    },
  };

  return {
    wallets,
    staking,
    status,
    /** The status has loaded, and with it the Bitcoin network addresses are checked for. */
    bitcoinNetworkKnown: status.data !== undefined,
    fundsOf,
    closedReason,
    limitWarning,
    submit,
    stepUp,
    pending: create.isPending,
  };
}
