import {
  ADMIN_WALLET_MSG,
  networkLabel,
  type TAdminDepositAddress,
  type TStepUp,
} from '@coffer/shared';
import { userDisplayName } from '@web/components/admin/user-picker';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { DialogContent } from '@web/components/ui/dialog';
import { errorMessage } from '@web/lib/api-client';
import { tellProposed } from '@web/lib/staff';
import { useState } from 'react';
import { toast } from 'sonner';
import { useDeleteDepositAddress } from '../api/delete-deposit-address';

/** Delete Deposit Address. Render inside an open <Dialog>. */
export function DeleteAddressDialog({
  row,
  onDone,
}: {
  row: TAdminDepositAddress;
  onDone: () => void;
}) {
  const remove = useDeleteDepositAddress();
  // Delete asks for the admin's fresh second factor (step-up) before anything is sent.
  const [asking, setAsking] = useState(false);
  async function confirm(stepUp: TStepUp) {
    const answer = await remove.mutateAsync({ id: row.id, stepUp });
    setAsking(false);
    // Proposed: the address stays until another staff member approves its deletion.
    tellProposed(answer);
    onDone();
  }
  function failed(err: unknown) {
    setAsking(false);
    toast.error('Error', { description: errorMessage(err, ADMIN_WALLET_MSG.deleteAddressFailed) });
  }
  return (
    <DialogContent title="Delete Deposit Address" description={ADMIN_WALLET_MSG.deleteConfirm}>
      <StepUpDialog
        open={asking}
        title="Confirm the deletion"
        description={`Propose deleting the ${row.assetSymbol} address of ${userDisplayName(row.user)}: once another staff member approves, deposits to it are no longer credited.`}
        confirmLabel="Propose deletion"
        pendingLabel="Proposing..."
        danger
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <p className="break-all font-mono text-sm" translate="no">
        {row.address}
      </p>
      <p className="mt-1 text-sm text-muted">
        {row.assetSymbol} · {networkLabel(row.network)} · {userDisplayName(row.user)}
      </p>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => setAsking(true)} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </DialogContent>
  );
}
