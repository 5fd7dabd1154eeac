import { withTransaction } from '@server/db/tx';
import type pg from 'pg';
import { usersRepository as repo, type UserRow } from './auth.repository';

/**
 * The accounts as the public page, the operator's commands and tests reach them outside a
 * request's own transaction: each call on the pool, a new account in a transaction of its
 * own (the user, its profile and its wallets commit together).
 */
export function createUsers(pool: pg.Pool) {
  return {
    findByEmail: (email: string): Promise<UserRow | null> => repo.findByEmail(pool, email),
    isAdmin: (userId: string): Promise<boolean> => repo.isAdmin(pool, userId),
    makeAdmin: (userId: string): Promise<void> => repo.makeAdmin(pool, userId),
    countCustomers: (): Promise<number> => repo.countCustomers(pool),
    /** Null when the e-mail is taken. */
    create: (input: {
      email: string;
      passwordHash: string;
      verified: boolean;
    }): Promise<{ id: string } | null> =>
      withTransaction(pool, (client) => repo.create(client, input)),
  };
}

export type Users = ReturnType<typeof createUsers>;
