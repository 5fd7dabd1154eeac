import type { TAdminUsersResponse } from '@coffer/shared';
import { SummaryCard, SummaryGrid } from '@web/components/admin/summary-cards';
import { MailCheck, UserCheck, UserPlus, Users } from 'lucide-react';

type Summary = TAdminUsersResponse['summary'];

/** The four customer counts above the list, in the order staff read them. */
const CARDS = [
  { key: 'totalUsers', title: 'Total Users', note: 'Registered customers', icon: Users },
  { key: 'activeUsers', title: 'Active Users', note: 'Status active', icon: UserCheck },
  {
    key: 'newThisMonth',
    title: 'New This Month',
    note: 'Joined this calendar month',
    icon: UserPlus,
  },
  { key: 'emailVerified', title: 'Verified', note: 'E-mail address confirmed', icon: MailCheck },
] as const satisfies ReadonlyArray<{
  key: keyof Summary;
  title: string;
  note: string;
  icon: unknown;
}>;

export function UserSummaryCards({ summary }: { summary: Summary }) {
  return (
    <SummaryGrid>
      {CARDS.map(({ key, title, note, icon }) => (
        <SummaryCard key={key} title={title} value={summary[key]} note={note} icon={icon} />
      ))}
    </SummaryGrid>
  );
}
