import type { TAdminUsersResponse } from '@coffer/shared';
import { SummaryCard, SummaryGrid } from '@web/components/admin/summary-cards';
import { MailCheck, UserCheck, UserPlus, Users } from 'lucide-react';

/** The four customer counts above the list. */
export function UserSummaryCards({ summary }: { summary: TAdminUsersResponse['summary'] }) {
  return (
    <SummaryGrid>
      <SummaryCard
        title="Total Users"
        value={summary.totalUsers}
        note="Registered customers"
        icon={Users}
      />
      <SummaryCard
        title="Active Users"
        value={summary.activeUsers}
        note="Status active"
        icon={UserCheck}
      />
      <SummaryCard
        title="New This Month"
        value={summary.newThisMonth}
        note="Joined this calendar month"
        icon={UserPlus}
      />
      <SummaryCard
        title="Verified"
        value={summary.emailVerified}
        note="E-mail address confirmed"
        icon={MailCheck}
      />
    </SummaryGrid>
  );
}
