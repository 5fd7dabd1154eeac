import { z } from 'zod';
import { ZStaffRole } from './staff';
import { ZStepUp } from './step-up';

/** Amounts travel as exact decimal strings, never as JSON numbers. */
const ZDecimal = z.string();
const ZIso = z.string();

// ---------------------------------------------------------------- user directory

/** One customer as every admin picker shows it: name or e-mail, never anything secret. */
export const ZAdminDirectoryUser = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
});
export type TAdminDirectoryUser = z.infer<typeof ZAdminDirectoryUser>;

export const ZAdminUserDirectoryQuery = z.object({
  q: z.string().trim().max(200).optional().default(''),
  limit: z.coerce.number().int().min(1).max(50).optional().default(20),
});
export type TAdminUserDirectoryQuery = z.input<typeof ZAdminUserDirectoryQuery>;

export const ZAdminUserDirectory = z.object({ users: z.array(ZAdminDirectoryUser) });
export type TAdminUserDirectory = z.infer<typeof ZAdminUserDirectory>;

// ---------------------------------------------------------------- users management

export const ZAdminUsersQuery = z.object({
  q: z.string().trim().max(200).optional().default(''),
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional().default(25),
  /** Recount the summary figures now (Refresh Data) instead of using ones up to 5 s old. */
  fresh: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type TAdminUsersQuery = z.input<typeof ZAdminUsersQuery>;

export const ZAdminUsersSummary = z.object({
  totalUsers: z.number().int(),
  /** Profiles whose status is 'active'. */
  activeUsers: z.number().int(),
  /** Created in the current calendar month (UTC). */
  newThisMonth: z.number().int(),
  /** Customers who confirmed their e-mail address. */
  emailVerified: z.number().int(),
});
export type TAdminUsersSummary = z.infer<typeof ZAdminUsersSummary>;

/** staking display, decided on the server from the program start setting. */
export const ZAdminStakingTime = z.discriminatedUnion('state', [
  z.object({ state: z.literal('no_eth') }),
  z.object({ state: z.literal('starts_soon'), startsAt: ZIso }),
  z.object({ state: z.literal('running'), since: ZIso }),
]);
export type TAdminStakingTime = z.infer<typeof ZAdminStakingTime>;

export const ZAdminUserFigures = z.object({
  id: z.string(),
  /** Every wallet at live prices (USDT and USDC at 1). */
  portfolioUsd: ZDecimal,
  /** The ETH staking balance at the live ETH price. */
  stakingUsd: ZDecimal,
  stakingTime: ZAdminStakingTime,
});
export type TAdminUserFigures = z.infer<typeof ZAdminUserFigures>;

export const ZAdminUserRow = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  status: z.string(),
  createdAt: ZIso,
  lastLogin: ZIso.nullable(),
  twoFactorRequired: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /**
   * Frozen by the customer's "This wasn't me" link until staff review it (S10), or unfrozen
   * but waiting for the owner's new password: nobody signs in either way, and the users
   * screen offers the freeze review.
   */
  frozen: z.boolean(),
  figures: ZAdminUserFigures,
});
export type TAdminUserRow = z.infer<typeof ZAdminUserRow>;

export const ZAdminUsersResponse = z.object({
  summary: ZAdminUsersSummary,
  users: z.array(ZAdminUserRow),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Whether the prices behind the USD figures are live, cached or the catalogue's. */
  priceSource: z.enum(['live', 'cached', 'fallback']),
});
export type TAdminUsersResponse = z.infer<typeof ZAdminUsersResponse>;

/** The light poll of the Users screen: wallet figures for the rows on screen (every 5 s). */
export const ZAdminUserFiguresQuery = z.object({
  ids: z
    .string()
    .max(100 * 37)
    .transform((s) => s.split(',').filter((x) => x !== ''))
    .pipe(z.array(z.string().uuid()).max(100)),
});
export const ZAdminUserFiguresResponse = z.object({ figures: z.array(ZAdminUserFigures) });
export type TAdminUserFiguresResponse = z.infer<typeof ZAdminUserFiguresResponse>;

/** A customer id in an address; anything else names no user (the service's own text). */
export const ZAdminUserIdParams = z.object({ id: z.uuid({ error: 'User not found' }) });

export const WAIVE_TWO_FACTOR_REASON_MISSING =
  'Enter why two-factor authentication is no longer required for this customer.';

/**
 * Requiring 2FA is one click; waiving it weakens the account, so it needs a reason, which
 * the audit log keeps (the customer is told by e-mail). Either way the acting staff member
 * confirms it with a fresh second factor (step-up): a stolen staff session cannot waive a
 * customer's factor.
 */
export const ZAdminTwoFactorRequiredRequest = z
  .object({
    required: z.boolean(),
    reason: z.string().trim().max(500, 'Keep the reason under 500 characters').optional(),
    stepUp: ZStepUp,
  })
  .superRefine((v, ctx) => {
    if (!v.required && !v.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: WAIVE_TWO_FACTOR_REASON_MISSING });
    }
  });
export type TAdminTwoFactorRequiredRequest = z.infer<typeof ZAdminTwoFactorRequiredRequest>;

export const ADMIN_RESET_PHRASE_MISSING = "Please enter the user's 12-word recovery phrase";

export const ZAdminTwoFactorResetRequest = z.object({
  recoveryPhrase: z.string().trim().min(1, ADMIN_RESET_PHRASE_MISSING).max(500),
  /** Removing a factor takes the acting admin's own fresh second factor (step-up). */
  stepUp: ZStepUp,
});
export type TAdminTwoFactorResetRequest = z.infer<typeof ZAdminTwoFactorResetRequest>;

export const STAFF_RESET_REASON_MISSING =
  "Say why this admin's two-factor authentication is reset: the reason goes to the audit log.";

export const DISABLE_REASON_MISSING =
  'Say why two-factor authentication is turned off: the reason goes to the audit log and to the customer.';

/**
 * Turning a second factor off, a customer's or another admin's: always with a reason (kept
 * in the audit row and told to the customer) and the acting admin's fresh second factor, so
 * a stolen staff session cannot strip a customer's factor in one click.
 */
export const ZAdminTwoFactorDisableRequest = z.object(
  {
    reason: z
      .string({ error: DISABLE_REASON_MISSING })
      .trim()
      .min(1, DISABLE_REASON_MISSING)
      .max(500, 'Keep the reason under 500 characters'),
    stepUp: ZStepUp,
  },
  // A request with no body at all is missing its reason first.
  { error: DISABLE_REASON_MISSING },
);
export type TAdminTwoFactorDisableRequest = z.infer<typeof ZAdminTwoFactorDisableRequest>;

export const ZAdminTwoFactorState = z.object({
  id: z.string(),
  twoFactorRequired: z.boolean(),
  twoFactorEnabled: z.boolean(),
});
export type TAdminTwoFactorState = z.infer<typeof ZAdminTwoFactorState>;

// ---------------------------------------------------------------- staff

/** A staff member as the Staff screen shows them: roles and factors, never a secret. */
export const ZAdminStaffRow = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  roles: z.array(ZStaffRole),
  /** The last sign-in; null for an invited staff member who has not signed in yet. */
  lastLogin: ZIso.nullable(),
  /** The authenticator (TOTP) is on. */
  twoFactorEnabled: z.boolean(),
  /** How many passkeys they hold. */
  passkeys: z.number().int(),
  /** Inside a security hold (after a reset of their factor): they read but change nothing. */
  onHold: z.boolean(),
  holdUntil: ZIso.nullable(),
  frozen: z.boolean(),
});
export type TAdminStaffRow = z.infer<typeof ZAdminStaffRow>;

export const ZAdminStaffList = z.object({ staff: z.array(ZAdminStaffRow) });
export type TAdminStaffList = z.infer<typeof ZAdminStaffList>;

// ---------------------------------------------------------------- recovery phrases (S1)

/** Metadata only: who has a phrase, its type and when. Never the phrase nor its ciphertext. */
export const ZAdminPhraseRow = z.object({
  userId: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  type: z.enum(['generated', 'custom']),
  createdAt: ZIso,
});
export type TAdminPhraseRow = z.infer<typeof ZAdminPhraseRow>;

export const ZAdminRecoveryPhrasesQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional().default(50),
});
export type TAdminRecoveryPhrasesQuery = z.input<typeof ZAdminRecoveryPhrasesQuery>;

export const ZAdminRecoveryPhrases = z.object({
  summary: z.object({
    total: z.number().int(),
    generated: z.number().int(),
    custom: z.number().int(),
    /** Created in the last 7 days. */
    thisWeek: z.number().int(),
  }),
  phrases: z.array(ZAdminPhraseRow),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The newest customers without a phrase (at most 50), and how many there are. */
  withoutPhrase: z.array(ZAdminDirectoryUser),
  withoutPhraseTotal: z.number().int(),
});
export type TAdminRecoveryPhrases = z.infer<typeof ZAdminRecoveryPhrases>;
