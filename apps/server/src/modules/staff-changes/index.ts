/** Two-person changes: the front door other modules propose through and register kinds with. */
export { staffActorOf } from './staff-actor';
export type { StaffChangeRow } from './staff-changes.repository';
export { staffChangesRoutes } from './staff-changes.routes';
export {
  type ChangeDescription,
  type ChangeKind,
  createStaffChanges,
  FUNDING_COOL_OFF_DAYS,
  presentChange,
  type StaffActor,
  type StaffChanges,
} from './staff-changes.service';
