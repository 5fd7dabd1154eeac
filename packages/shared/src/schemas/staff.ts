import { z } from 'zod';
import { ZStepUp } from './step-up';

/**
 * Staff roles and what each may do (docs/roles.md). The server's gate checks the
 * permission every admin route declares against the roles of the session; the web reads the
 * same table only to leave out what a role cannot do (the server stays the authority).
 */
export const STAFF_ROLES = [
  'owner',
  'approver',
  'treasurer',
  'compliance',
  'support',
  'auditor',
] as const;
export type TStaffRole = (typeof STAFF_ROLES)[number];
export const ZStaffRole = z.enum(STAFF_ROLES);

export const STAFF_ROLE_LABELS: Record<TStaffRole, string> = {
  owner: 'Owner',
  approver: 'Approver',
  treasurer: 'Treasurer',
  compliance: 'Compliance',
  support: 'Support',
  auditor: 'Auditor',
};

export const STAFF_ROLE_DUTIES: Record<TStaffRole, string> = {
  owner: 'Invites and removes staff, changes their roles, proposes settings.',
  approver: 'Approves the changes and payouts others propose.',
  treasurer: 'Proposes money changes; builds and submits payout files.',
  compliance: 'Reviews identity checks; holds, freezes and customers’ two-factor.',
  support: 'Answers chat; reads customers and transactions, bank details masked.',
  auditor: 'Reads everything, the audit log included; changes nothing.',
};

const ALL: readonly TStaffRole[] = STAFF_ROLES;
const READERS: readonly TStaffRole[] = ['owner', 'approver', 'treasurer', 'compliance', 'auditor'];

/**
 * Every permission, with the roles that hold it. A route declares exactly one; a change
 * kind declares the one its approver needs.
 */
export const PERMISSION_ROLES = {
  /** The back office itself: its home, the changes waiting, prices. */
  'back-office.read': ALL,
  /** Customers, their wallets, deposit addresses, security activity and phrase metadata. */
  'customers.read': ALL,
  /** The ledger's rows and the payout queues. */
  'transactions.read': ALL,
  /** A bank payout's account in full (support sees it masked). */
  'bank-details.read': READERS,
  'payouts.read': READERS,
  'chains.read': READERS,
  'settings.read': READERS,
  'audit.read': ['owner', 'compliance', 'auditor'],
  'staff.read': ['owner', 'compliance', 'auditor'],
  'kyc.read': ['compliance', 'auditor'],
  'chat.read': ['support', 'compliance', 'auditor'],
  'chat.write': ['support'],
  /** Identity review, holds and freezes, customers' two-factor. */
  'kyc.review': ['compliance'],
  'customers.protect': ['compliance'],
  /** Proposing what creates, moves or redirects money: never applied without an approver. */
  'money.propose': ['treasurer'],
  'settings.propose': ['owner', 'approver', 'treasurer', 'compliance'],
  'payouts.approve': ['approver'],
  'payouts.build': ['treasurer'],
  'prices.sync': ['owner', 'treasurer'],
  /** Approving a proposed money, address or setting change. */
  'changes.approve': ['approver'],
  /** The approve and reject routes: whoever approves some kind of change. */
  'changes.decide': ['approver', 'owner'],
  'staff.manage': ['owner'],
} as const satisfies Record<string, readonly TStaffRole[]>;

export type TPermission = keyof typeof PERMISSION_ROLES;
export const PERMISSIONS = Object.keys(PERMISSION_ROLES) as TPermission[];

/** Whether any of `roles` holds `permission`. Unknown permissions hold for nobody. */
export function rolesAllow(roles: readonly string[], permission: TPermission): boolean {
  const holders: readonly string[] = PERMISSION_ROLES[permission] ?? [];
  return roles.some((r) => holders.includes(r));
}

export const STAFF_MSG = {
  forbiddenRole: 'Your staff role does not allow this. An owner can change your roles.',
  changeNotFound: 'This change does not exist.',
  changeDecided: 'This change was already decided.',
  changeExpired:
    'This change expired: nothing was changed. Propose it again if it is still wanted.',
  ownProposal: 'You proposed this change: another staff member must approve it.',
  ownAccount: 'This change concerns your own account: another staff member must approve it.',
  cannotDecide: 'Your staff role cannot approve this kind of change.',
  proposed: 'Proposed: another staff member must approve it before anything changes.',
  lastOwner: 'The last owner cannot be removed: make another staff member an owner first.',
  noRoles: 'Give the staff member at least one role.',
  fundedCustomer:
    'You proposed or approved a manual credit or adjustment for this customer in the last 30 days: another staff member must decide their payouts.',
} as const;

/** How long a proposal waits for its approver before it expires. */
export const CHANGE_TTL_HOURS = 72;

export const CHANGE_STATUSES = ['pending', 'approved', 'rejected', 'replaced', 'expired'] as const;
export type TChangeStatus = (typeof CHANGE_STATUSES)[number];

/**
 * A change one staff member proposed and another must approve: what it is, who it
 * concerns and what it will do, as `before` and `after` (plain values, shown side by side).
 */
export const ZPendingChange = z.object({
  id: z.string(),
  kind: z.string(),
  summary: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  proposedBy: z.object({ id: z.string(), email: z.string() }),
  proposedAt: z.string(),
  expiresAt: z.string(),
  /** The customer or staff member the change is about, when there is one. */
  subject: z.object({ id: z.string(), email: z.string() }).nullable(),
  status: z.enum(CHANGE_STATUSES),
});
export type TPendingChange = z.infer<typeof ZPendingChange>;

/** The answer of every proposing route: 202, nothing changed yet. */
export const ZProposedResponse = z.object({ pending: ZPendingChange });
export type TProposedResponse = z.infer<typeof ZProposedResponse>;

export const ZChangesResponse = z.object({ changes: z.array(ZPendingChange), count: z.number() });
export type TChangesResponse = z.infer<typeof ZChangesResponse>;

export const ZChangeIdParams = z.object({ id: z.string().uuid('Unknown change.') });
export const ZDecideChangeRequest = z.object({ stepUp: ZStepUp });
export type TDecideChangeRequest = z.infer<typeof ZDecideChangeRequest>;

/** An approval's answer: the change as decided. */
export const ZDecidedChangeResponse = z.object({ change: ZPendingChange });
export type TDecidedChangeResponse = z.infer<typeof ZDecidedChangeResponse>;
