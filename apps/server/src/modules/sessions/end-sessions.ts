import type pg from 'pg';
import { sessionsRepository } from './sessions.repository';

/**
 * Ends every session of a user, or every one but `except` (the device making the change),
 * on the caller's transaction: the sign-outs commit with the change that caused them, or not
 * at all. Open sockets close as the sessions trigger announces the end. How many ended.
 */
export async function endSessions(
  client: Pick<pg.PoolClient, 'query'>,
  userId: string,
  except?: string,
): Promise<number> {
  return sessionsRepository.deleteAll(client, userId, except ?? null);
}
