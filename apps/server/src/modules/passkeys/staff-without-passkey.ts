import type pg from 'pg';
import { passkeysRepository } from './passkeys.repository';

/** Who `admins_require_passkey` would lock out: the e-mail of every staff member without a passkey. */
export function staffWithoutPasskey(db: pg.Pool | pg.PoolClient): Promise<string[]> {
  return passkeysRepository.staffWithoutPasskey(db);
}
