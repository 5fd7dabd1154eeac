import { STAFF_ROLES, type TStaffRole } from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import type pg from 'pg';
import { usersRepository as repo, type UserRow } from './auth.repository';

type NewAccount = { email: string; passwordHash: string; verified: boolean };

/**
 * The accounts as the public page, the operator's commands and tests reach them outside a
 * request's own transaction: each call on the pool, a new account in a transaction of its
 * own (the user, its profile and its wallets commit together).
 */
export function createUsers(pool: pg.Pool) {
  return {
    findByEmail: (email: string): Promise<UserRow | null> => repo.findByEmail(pool, email),
    isAdmin: (userId: string): Promise<boolean> => repo.isAdmin(pool, userId),
    /** Staff with these roles (every role when none are named, as for a first admin). */
    makeAdmin: (userId: string, roles: readonly TStaffRole[] = STAFF_ROLES): Promise<void> =>
      repo.makeAdmin(pool, userId, roles),
    countCustomers: (): Promise<number> => repo.countCustomers(pool),

    /** Null when the e-mail is taken. */
    create: (input: NewAccount): Promise<{ id: string } | null> =>
      withTransaction(pool, (client) => repo.create(client, input)),

    /** The operator's `create-admin`: the account and its admin row in one commit. */
    createAdmin: (
      input: NewAccount,
      roles: readonly TStaffRole[] = STAFF_ROLES,
    ): Promise<{ id: string } | null> =>
      withTransaction(pool, (client) => createAdminIn(client, input, roles)),

    /** Staff invited in the app: the account and its admin row on the approval's transaction. */
    createAdminIn,
  };
}

/** A new staff account on the caller's transaction; null when the e-mail is taken. */
async function createAdminIn(
  client: TxClient,
  input: NewAccount,
  roles: readonly TStaffRole[],
): Promise<{ id: string } | null> {
  const user = await repo.create(client, input);
  if (user) await repo.makeAdmin(client, user.id, roles);
  return user;
}

export type Users = ReturnType<typeof createUsers>;
