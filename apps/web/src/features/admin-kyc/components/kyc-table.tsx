import { formatDateTime, type TAdminKycListItem, type TQueueOrder } from '@coffer/shared';
import { Age } from '@web/components/admin/age';
import { STACKED } from '@web/components/admin/stacked-table';
import { Button } from '@web/components/ui/button';
import { CustomerText } from '@web/components/ui/customer-text';
import { EmailText } from '@web/components/ui/email-text';
import { cn } from '@web/lib/cn';
import { Eye } from 'lucide-react';
import { KycBadge } from './kyc-badge';

/** A page of submissions, each with how long ago it was sent and its Review button. */
export function KycTable({
  submissions,
  order,
  onReview,
}: {
  submissions: TAdminKycListItem[];
  order: TQueueOrder;
  onReview: (id: string) => void;
}) {
  return (
    <table className={STACKED.table}>
      <caption className="sr-only">KYC submissions, {order} first</caption>
      <thead className={STACKED.head}>
        <tr>
          <th className={STACKED.headCell}>User</th>
          <th className={STACKED.headCell}>Full Name</th>
          <th className={STACKED.headCell}>Phone</th>
          <th className={STACKED.headCell}>Status</th>
          <th className={STACKED.headCell}>Age</th>
          <th className={STACKED.headCell}>Actions</th>
        </tr>
      </thead>
      <tbody className={STACKED.body}>
        {submissions.map((s) => (
          <tr key={s.id} className={STACKED.row}>
            <td data-label="User" className={STACKED.cell}>
              <EmailText email={s.email} className="min-w-0" />
            </td>
            <td data-label="Full Name" className={cn(STACKED.cell, 'font-medium')}>
              <CustomerText text={s.fullName} className="min-w-0" />
            </td>
            <td data-label="Phone" className={STACKED.cell}>
              <CustomerText text={s.phoneNumber} className="min-w-0" />
            </td>
            <td data-label="Status" className={STACKED.cell}>
              <KycBadge status={s.status} />
            </td>
            <td data-label="Age" className={STACKED.cell}>
              <Age since={s.submittedAt} title={formatDateTime(s.submittedAt)} />
            </td>
            <td className={STACKED.wideCell}>
              <Button
                variant="outline"
                size="sm"
                onClick={() => onReview(s.id)}
                aria-label={`Review KYC submission of ${s.fullName}`}
                className="max-md:w-full"
              >
                <Eye className="h-3.5 w-3.5" aria-hidden />
                Review
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
