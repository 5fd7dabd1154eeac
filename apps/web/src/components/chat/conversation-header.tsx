import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { CustomerText } from '../ui/customer-text';
import { RoomStatus } from './room-status';

/**
 * The conversation's title bar: back (on a phone), who it is with, status, and the side's
 * own actions (staff: Close conversation).
 */
export function ConversationHeader({
  title,
  subtitle,
  status,
  onBack,
  actions,
}: {
  title: string;
  subtitle?: string;
  status: string;
  onBack: () => void;
  actions?: ReactNode;
}) {
  return (
    <header className="flex items-center gap-2 border-b border-border p-3">
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        onClick={onBack}
        aria-label="Back to conversations"
      >
        <ArrowLeft className="h-5 w-5" aria-hidden />
      </Button>
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold text-fg">
          <CustomerText text={title} truncate />
        </h2>
        {subtitle ? (
          <p className="text-xs text-muted">
            <CustomerText text={subtitle} truncate />
          </p>
        ) : null}
      </div>
      <RoomStatus status={status} />
      {actions}
    </header>
  );
}
