import type { AccountServices } from './app-services-accounts';
import type { ChainServices } from './app-services-chains';
import type { MoneyServices } from './app-services-money';
import type { Infra, Platform } from './app-services-platform';
import { createAdminAuditService } from './modules/admin-audit';
import { createAdminSettingsService } from './modules/admin-settings';
import { createAdminTransactionsService } from './modules/admin-transactions';
import { createAdminUsersService } from './modules/admin-users';
import { createAdminWalletsService } from './modules/admin-wallets';
import { createChatService } from './modules/chat';
import { createKycService } from './modules/kyc';
import { staffWithoutPasskey } from './modules/passkeys';
import { createStaffService } from './modules/staff';
import type { StaffChanges } from './modules/staff-changes';

/** Support: identity checks and the chat, each shared by the customer's and staff's routes. */
export function createSupportServices(
  infra: Infra,
  {
    files,
    outbox,
    limiter,
    audit,
    realtime,
    settings,
  }: Pick<Platform, 'files' | 'outbox' | 'limiter' | 'audit' | 'realtime' | 'settings'>,
  // Staff's writes here (a KYC decision, closing a conversation) take their step-up.
  { stepUp }: Pick<AccountServices, 'stepUp'>,
) {
  const { pool, config } = infra;
  const kyc = createKycService({
    pool,
    files,
    audit,
    realtime,
    outbox,
    limiter,
    stepUp,
    publicUrl: config.publicUrl,
  });
  const chat = createChatService({
    pool,
    files,
    realtime,
    audit,
    limiter,
    outbox,
    stepUp,
    setting: (key) => settings.get(key),
    log: infra.log,
    publicUrl: config.publicUrl,
  });
  return { kyc, chat };
}

/** The admin screens' services. */
export function createAdminServices(
  infra: Infra,
  {
    clock,
    outbox,
    limiter,
    settings,
    audit,
    securityLog,
    users,
  }: Pick<
    Platform,
    'clock' | 'outbox' | 'limiter' | 'settings' | 'audit' | 'securityLog' | 'users'
  >,
  { securityHold, phrases, stepUp }: Pick<AccountServices, 'securityHold' | 'phrases' | 'stepUp'>,
  {
    ledger,
    ledgerCheck,
    prices,
    withdrawals,
    deposits,
  }: Pick<MoneyServices, 'ledger' | 'ledgerCheck' | 'prices' | 'withdrawals' | 'deposits'>,
  { chainAdapters, payouts }: Pick<ChainServices, 'chainAdapters' | 'payouts'>,
  changes: StaffChanges,
) {
  const { pool, secrets, config } = infra;
  const adminUsers = createAdminUsersService({
    pool,
    settings,
    prices,
    outbox,
    securityLog,
    securityHold,
    audit,
    limiter,
    phrases,
    stepUp,
    ledgerCheck,
    chainAdapters,
    changes,
    publicUrl: config.publicUrl,
    clock,
  });
  // Staff invited, given roles and removed in the app: an invitation and a role change wait
  // for another owner (changes); an approved invitation creates the account (users) and mails
  // its set-password link (securityHold's).
  const staff = createStaffService({
    pool,
    audit,
    stepUp,
    changes,
    outbox,
    accounts: users,
    securityHold,
    publicUrl: config.publicUrl,
  });
  // Ledger rows staff add, edit or delete, and hand completions, are two-person changes.
  const adminTransactions = createAdminTransactionsService({
    pool,
    ledger,
    audit,
    secrets,
    withdrawals,
    payouts,
    stepUp,
    changes,
    outbox,
    publicUrl: config.publicUrl,
  });
  // Balance and address changes are proposed and applied on another's approval (changes),
  // mailing the customer then (outbox); an added address fulfils the customer's request for
  // it, in the approval's transaction.
  const adminWallets = createAdminWalletsService({
    pool,
    ledger,
    prices,
    audit,
    stepUp,
    changes,
    outbox,
    publicUrl: config.publicUrl,
    addressRequests: deposits.addressRequests,
  });
  const adminSettings = createAdminSettingsService({
    pool,
    audit,
    stepUp,
    changes,
    staffWithoutPasskey,
    settings,
    prices,
    log: infra.log,
  });
  const adminAudit = createAdminAuditService({ pool, audit });
  return { adminUsers, adminTransactions, adminWallets, adminSettings, adminAudit, staff };
}
