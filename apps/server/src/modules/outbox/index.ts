/**
 * The outbox module's only entry point: other modules import it by its folder, `../outbox`.
 * The outbox queues side effects (mails, file removals) in a change's own transaction and
 * carries them out after the commit; the file sweep removes uploads no row names.
 */
export { createFileSweep, type FileSweep, ORPHAN_MIN_AGE_MS, SWEPT_PREFIXES } from './file-sweep';
export {
  createOutbox,
  type FilesToDelete,
  MAX_ATTEMPTS,
  type Outbox,
  retryDelaySeconds,
} from './outbox.service';
