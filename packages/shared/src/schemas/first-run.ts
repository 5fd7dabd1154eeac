import { z } from 'zod';

/**
 * The dashboard's first-run checklist: the steps a new customer takes, each as the server
 * knows it, and whether the customer closed the checklist (kept per account).
 */

/** Identity verification as the checklist tells it: none sent, waiting for review, or decided. */
export const ZKycProgress = z.enum(['not-started', 'submitted', 'approved', 'rejected']);
export type TKycProgress = z.infer<typeof ZKycProgress>;

export const ZFirstRunResponse = z.object({
  kyc: ZKycProgress,
  /** True once any deposit of the customer is completed. */
  deposited: z.boolean(),
  /** True while the account has a passkey. */
  passkey: z.boolean(),
  /** True once the customer closed the checklist; it stays closed. */
  dismissed: z.boolean(),
});
export type TFirstRunResponse = z.infer<typeof ZFirstRunResponse>;
