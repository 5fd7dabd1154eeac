import { Badge } from '../ui/badge';

/** 'Online' when the room's status is active, 'Closed' when staff closed it, else 'Offline'. */
export function RoomStatus({ status }: { status: string }) {
  if (status === 'closed') {
    return (
      <Badge variant="secondary" className="shrink-0">
        Closed
      </Badge>
    );
  }
  const online = status === 'active';
  return (
    <Badge variant={online ? 'success' : 'secondary'} className="shrink-0">
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}
