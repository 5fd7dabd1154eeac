import {
  ZAdjustWalletBalanceRequest,
  ZAdminAddressRequestsResponse,
  ZAdminDepositAddressesQuery,
  ZAdminDepositAddressesResponse,
  ZAdminDepositAddressIdParams,
  ZAdminUserDepositAddressesResponse,
  ZAdminUserWalletsResponse,
  ZAdminWalletIdParams,
  ZAdminWalletsUserParams,
  ZCreateDepositAddressRequest,
  ZDeleteDepositAddressRequest,
  ZProposedResponse,
  ZUpdateDepositAddressRequest,
  ZUpdateWalletAddressRequest,
} from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyOf } from '../money-controls';
import { staffActorOf } from '../staff-changes';
import type { AdminWalletsService } from './admin-wallets.service';

/**
 * Wallet management and deposit addresses; admin-only by the tree. A balance edit and every
 * address write is a proposal (two people, decision 0036): 202 with `{ pending }`, nothing
 * changed until another staff member approves it (`POST /api/admin/changes/:id/approve`).
 */
export function adminWalletsRoutes(wallets: AdminWalletsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/users/:userId/wallets',
      {
        config: { permission: 'customers.read' },
        schema: {
          params: ZAdminWalletsUserParams,
          response: { 200: ZAdminUserWalletsResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({ wallets: await wallets.walletsOf(request.params.userId) }),
    );

    app.get(
      '/api/admin/users/:userId/deposit-addresses',
      {
        config: { permission: 'customers.read' },
        schema: {
          params: ZAdminWalletsUserParams,
          response: { 200: ZAdminUserDepositAddressesResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({ addresses: await wallets.addressesOf(request.params.userId) }),
    );

    app.patch(
      '/api/admin/wallets/:id/address',
      {
        config: { permission: 'money.propose' },
        schema: {
          params: ZAdminWalletIdParams,
          body: ZUpdateWalletAddressRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const pending = await wallets.proposeWalletAddress(
          staffActorOf(request),
          request.params.id,
          request.body.address,
          request.body.stepUp,
        );
        return reply.code(202).send({ pending });
      },
    );

    app.post(
      '/api/admin/wallets/:id/balance',
      {
        config: { permission: 'money.propose' },
        schema: {
          params: ZAdminWalletIdParams,
          body: ZAdjustWalletBalanceRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        // A repeat with the same Idempotency-Key gets the first answer (a 202 too).
        const answer = await wallets.proposeBalance(
          staffActorOf(request),
          request.params.id,
          request.body,
          idempotencyKeyOf(request),
        );
        return reply.code(202).send(answer);
      },
    );

    app.get(
      '/api/admin/deposit-addresses',
      {
        config: { permission: 'customers.read' },
        schema: {
          querystring: ZAdminDepositAddressesQuery,
          response: { 200: ZAdminDepositAddressesResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => wallets.listAddresses(request.query.q),
    );

    app.get(
      '/api/admin/deposit-address-requests',
      {
        config: { permission: 'customers.read' },
        schema: { response: { 200: ZAdminAddressRequestsResponse, ...ERROR_RESPONSES } },
      },
      async () => ({ requests: await wallets.addressRequests() }),
    );

    app.post(
      '/api/admin/deposit-addresses',
      {
        config: { permission: 'money.propose' },
        schema: {
          body: ZCreateDepositAddressRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const pending = await wallets.proposeCreateAddress(staffActorOf(request), request.body);
        return reply.code(202).send({ pending });
      },
    );

    app.patch(
      '/api/admin/deposit-addresses/:id',
      {
        config: { permission: 'money.propose' },
        schema: {
          params: ZAdminDepositAddressIdParams,
          body: ZUpdateDepositAddressRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const pending = await wallets.proposeUpdateAddress(
          staffActorOf(request),
          request.params.id,
          request.body,
        );
        return reply.code(202).send({ pending });
      },
    );

    app.delete(
      '/api/admin/deposit-addresses/:id',
      {
        config: { permission: 'money.propose' },
        schema: {
          params: ZAdminDepositAddressIdParams,
          body: ZDeleteDepositAddressRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const pending = await wallets.proposeDeleteAddress(
          staffActorOf(request),
          request.params.id,
          request.body.stepUp,
        );
        return reply.code(202).send({ pending });
      },
    );
  };
}
