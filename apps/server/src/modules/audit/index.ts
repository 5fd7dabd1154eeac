/** The audit log's front door: other modules record and verify through it. */
export {
  type AuditEntry,
  type AuditLog,
  type AuditVerification,
  auditHash,
  createAuditLog,
  GENESIS_HASH,
} from './audit.service';
