import type { TPermission } from '@coffer/shared';
import {
  ArrowDownToLine,
  ArrowUpFromLine,
  Blocks,
  FileClock,
  History,
  IdCard,
  KeyRound,
  Landmark,
  LayoutDashboard,
  LockKeyhole,
  type LucideIcon,
  MapPinned,
  MessagesSquare,
  Receipt,
  Send,
  Settings,
  Settings2,
  ShieldCheck,
  UserCheck,
  UserCog,
  UsersRound,
  WalletCards,
} from 'lucide-react';

export type NavEntry = {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Highlight only on this exact path, not on the paths below it. */
  end?: boolean;
  group: 'account' | 'admin';
  /** An admin entry's screen reads this: a staff role without it is not shown the entry. */
  permission?: TPermission;
  /** The entry shows the count of changes waiting for a second staff member. */
  changesBadge?: boolean;
  /** A customer's own screen that staff are never offered (the recovery phrase). */
  customerOnly?: boolean;
};

// Every menu entry of the portal, in menu order; a new screen adds its entry here only.
export const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard, end: true, group: 'account' },
  { label: 'Deposit', to: '/dashboard/deposit', icon: ArrowDownToLine, group: 'account' },
  { label: 'Withdraw', to: '/dashboard/withdraw', icon: ArrowUpFromLine, group: 'account' },
  { label: 'Bank Transfer', to: '/bank-transfer', icon: Landmark, group: 'account' },
  { label: 'History', to: '/dashboard/history', icon: History, group: 'account' },
  { label: 'Verification', to: '/kyc', icon: IdCard, group: 'account' },
  {
    label: 'Secret Combination',
    to: '/secret-combination',
    icon: KeyRound,
    group: 'account',
    customerOnly: true,
  },
  { label: 'Support', to: '/dashboard/chat', icon: MessagesSquare, group: 'account' },
  { label: 'Settings', to: '/dashboard/settings', icon: Settings, group: 'account' },
  {
    label: 'Admin Dashboard',
    to: '/dashboard/admin',
    icon: ShieldCheck,
    end: true,
    group: 'admin',
    permission: 'back-office.read',
    changesBadge: true,
  },
  {
    label: 'Users',
    to: '/dashboard/admin/users',
    icon: UserCog,
    group: 'admin',
    permission: 'customers.read',
  },
  {
    label: 'Transactions',
    to: '/dashboard/admin/transactions',
    icon: Receipt,
    group: 'admin',
    permission: 'transactions.read',
  },
  {
    label: 'Recovery Phrases',
    to: '/admin/recovery-phrases',
    icon: LockKeyhole,
    group: 'admin',
    permission: 'customers.read',
  },
  {
    label: 'Wallet Management',
    to: '/dashboard/admin/wallet-management',
    icon: WalletCards,
    group: 'admin',
    permission: 'customers.read',
  },
  {
    label: 'Deposit Addresses',
    to: '/dashboard/admin/addresses',
    icon: MapPinned,
    group: 'admin',
    permission: 'customers.read',
  },
  {
    label: 'Chains',
    to: '/dashboard/admin/chains',
    icon: Blocks,
    group: 'admin',
    permission: 'chains.read',
  },
  {
    label: 'Payouts',
    to: '/dashboard/admin/payouts',
    icon: Send,
    group: 'admin',
    permission: 'payouts.read',
  },
  {
    label: 'App Settings',
    to: '/dashboard/admin/settings',
    icon: Settings2,
    group: 'admin',
    permission: 'settings.read',
  },
  {
    label: 'KYC Review',
    to: '/dashboard/admin/kyc',
    icon: UserCheck,
    group: 'admin',
    permission: 'kyc.read',
  },
  {
    label: 'Support Chat',
    to: '/dashboard/admin/chat',
    icon: MessagesSquare,
    group: 'admin',
    permission: 'chat.read',
  },
  {
    label: 'Audit Log',
    to: '/dashboard/admin/audit',
    icon: FileClock,
    group: 'admin',
    permission: 'audit.read',
  },
  {
    label: 'Staff',
    to: '/dashboard/admin/staff',
    icon: UsersRound,
    group: 'admin',
    permission: 'staff.read',
  },
];
