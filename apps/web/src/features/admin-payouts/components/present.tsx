import {
  assetById,
  formatAssetAmount,
  formatDateTime,
  type TBatchFileResponse,
  type TBatchState,
  type TPayoutChain,
} from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { saveBlob } from '@web/lib/upload-client';

export const CHAIN_LABELS: Record<TPayoutChain, string> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
};

export function assetLabel(assetId: string): string {
  if (assetId === 'USDT-ERC20') return 'USDT (ERC-20)';
  return assetById(assetId)?.symbol ?? assetId;
}

/**
 * An amount to the last unit the asset has, never rounded: a payout's amount is what the
 * signed transaction must pay, so staff compare it digit for digit.
 */
export function amountText(assetId: string, amount: string): string {
  const asset = assetById(assetId);
  return asset ? formatAssetAmount(asset, amount, { exact: true }) : `${amount} ${assetId}`;
}

export function dateText(iso: string | null): string {
  return iso ? formatDateTime(iso) : '—';
}

const BATCH_STATES: Record<TBatchState, string> = {
  built: 'Built',
  broadcast: 'Broadcast',
  confirming: 'Confirming',
  completed: 'Completed',
  abandoned: 'Abandoned',
};

export function BatchStateBadge({ state }: { state: TBatchState }) {
  if (state === 'completed') return <Badge variant="success">{BATCH_STATES[state]}</Badge>;
  if (state === 'abandoned') {
    return (
      <Badge variant="outline" className="border-danger/60 text-danger">
        {BATCH_STATES[state]}
      </Badge>
    );
  }
  if (state === 'built') return <Badge variant="outline">{BATCH_STATES[state]}</Badge>;
  return <Badge variant="secondary">{BATCH_STATES[state]}</Badge>;
}

/**
 * Saves a batch's file where the browser puts downloads. The file is text (a base64 PSBT or
 * the Ethereum JSON); it is offered as bytes so no browser opens it in a tab instead.
 */
export function downloadFile(file: TBatchFileResponse): void {
  saveBlob(new Blob([file.content], { type: 'application/octet-stream' }), file.fileName);
}
