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
  }
}
