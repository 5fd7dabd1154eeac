import { DISABLE_REASON_MISSING, WAIVE_TWO_FACTOR_REASON_MISSING } from '@coffer/shared';
import { CustomerText } from '@web/components/ui/customer-text';
import { toast } from 'sonner';
import type { useDisableTwoFactor, useSetTwoFactorRequired } from '../api/two-factor-actions';
import { ReasonDialog } from './reason-dialog';

export const REQUIRED_FAILED = 'Failed to update 2FA requirement. Please try again.';

type Customer = { id: string; name: string } | null;

/** Stop requiring 2FA for a customer: asks why, and the customer is told by e-mail. */
export function WaiveTwoFactorDialog({
  customer: waiving,
  onClose,
  setRequired,
}: {
  customer: Customer;
  onClose: () => void;
  setRequired: ReturnType<typeof useSetTwoFactorRequired>;
}) {
  return (
    <ReasonDialog
      open={waiving !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Stop requiring 2FA?"
      description={
        <>
          {waiving ? <CustomerText text={waiving.name} /> : 'This customer'} will be able to sign in
          with a password alone. Say why: the reason goes to the audit log, and the customer is told
          by e-mail.
        </>
      }
      confirmLabel="Stop requiring 2FA"
      pendingLabel="Saving..."
      missingReason={WAIVE_TWO_FACTOR_REASON_MISSING}
      failed={REQUIRED_FAILED}
      stepUpTitle="Confirm with your own second factor"
      onConfirm={async (reason, stepUp) => {
        if (!waiving || !stepUp) return;
        await setRequired.mutateAsync({ userId: waiving.id, required: false, reason, stepUp });
        toast.success('2FA Not Required', {
          description: (
            <>
              <CustomerText text={waiving.name} />: two-factor authentication is no longer required.
              They were told by e-mail.
            </>
          ),
        });
      }}
    />
  );
}

/**
 * Turn off a customer's 2FA: names the customer, asks why and takes the admin's own
 * step-up.
 */
export function DisableTwoFactorDialog({
  customer: disabling,
  onClose,
  disable,
}: {
  customer: Customer;
  onClose: () => void;
  disable: ReturnType<typeof useDisableTwoFactor>;
}) {
  return (
    <ReasonDialog
      open={disabling !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Turn off two-factor authentication?"
      description={
        <>
          {disabling ? <CustomerText text={disabling.name} /> : 'This customer'} loses their
          authenticator and passkeys, is signed out everywhere and is put on a security hold. Say
          why: the reason goes to the audit log and to the customer by e-mail.
        </>
      }
      confirmLabel="Disable 2FA"
      pendingLabel="Disabling..."
      missingReason={DISABLE_REASON_MISSING}
      failed="Failed to disable 2FA. Please try again."
      stepUpTitle="Confirm with your own second factor"
      onConfirm={async (reason, stepUp) => {
        if (!disabling || !stepUp) return;
        await disable.mutateAsync({ userId: disabling.id, reason, stepUp });
        toast.success('2FA Disabled', {
          description: (
            <>
              <CustomerText text={disabling.name} /> no longer has two-factor authentication. They
              were told by e-mail.
            </>
          ),
        });
      }}
    />
  );
}
