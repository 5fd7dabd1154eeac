import { Badge } from '../ui/badge';

/** 'Online' when the room's status is active, else 'Offline'. */
export function RoomStatus({ status }: { status: string }) {
  const online = status === 'active';
  return (
    <Badge variant={online ? 'success' : 'secondary'} className="shrink-0">
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}
