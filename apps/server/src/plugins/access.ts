import type { TPermission } from '@coffer/shared';

/**
 * Who may call a route, declared on the route itself (`config: { access }`) and enforced
 * for every request by the gate in plugins/gate.ts:
 * - `public`: anyone;
 * - `signed-in`: every session, even one that has not passed 2FA yet (what a user needs to
 *   finish 2FA or sign out);
 * - `customer` (the default): a session that passed the gate of ;
 * - `admin`: the same, and the user has a row in admin_users.
 */
export type Access = 'public' | 'signed-in' | 'customer' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * What an `admin` route needs of the staff member's roles (docs/roles.md). Every admin
     * route declares one where it is registered; the app refuses to start otherwise.
     */
    permission?: TPermission;
  }
}
