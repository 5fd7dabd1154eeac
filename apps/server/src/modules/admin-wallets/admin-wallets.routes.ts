import {
  ZAdjustWalletBalanceRequest,
  ZAdjustWalletBalanceResponse,
  ZAdminAddressRequestsResponse,
  ZAdminDepositAddressesQuery,
  ZAdminDepositAddressesResponse,
  ZAdminDepositAddressIdParams,
  ZAdminDepositAddressResponse,
  ZAdminUserDepositAddressesResponse,
  ZAdminUserWalletsResponse,
  ZAdminWalletIdParams,
  ZAdminWalletResponse,
  ZAdminWalletsUserParams,
  ZCreateDepositAddressRequest,
  ZDeleteDepositAddressRequest,
  ZOk,
  ZUpdateDepositAddressRequest,
  ZUpdateWalletAddressRequest,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyOf } from '../money-controls';
import type { Actor, AdminWalletsService } from './admin-wallets.service';

function actorOf(request: FastifyRequest): Actor {
  const session = signedIn(request);
  return { adminId: session.userId, ip: request.ip ?? null, session, client: clientOf(request) };
}

/** Wallet management and deposit addresses; admin-only by the tree. */
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
          response: { 200: ZAdminWalletResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        wallet: await wallets.updateWalletAddress(
          actorOf(request),
          request.params.id,
          request.body.address,
        ),
      }),
    );

    app.post(
      '/api/admin/wallets/:id/balance',
      {
        config: { permission: 'money.propose' },
        schema: {
          params: ZAdminWalletIdParams,
          body: ZAdjustWalletBalanceRequest,
          response: { 200: ZAdjustWalletBalanceResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        wallets.adjustBalance(
          actorOf(request),
          request.params.id,
          request.body,
          idempotencyKeyOf(request),
        ),
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
          response: { 200: ZAdminDepositAddressResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        address: await wallets.createAddress(actorOf(request), request.body),
      }),
    );

    app.patch(
      '/api/admin/deposit-addresses/:id',
      {
        config: { permission: 'money.propose' },
        schema: {
          params: ZAdminDepositAddressIdParams,
          body: ZUpdateDepositAddressRequest,
          response: { 200: ZAdminDepositAddressResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        address: await wallets.updateAddress(actorOf(request), request.params.id, request.body),
      }),
    );

    app.delete(
      '/api/admin/deposit-addresses/:id',
      {
        config: { permission: 'money.propose' },
        schema: {
          params: ZAdminDepositAddressIdParams,
          body: ZDeleteDepositAddressRequest,
          response: { 200: ZOk, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        await wallets.deleteAddress(actorOf(request), request.params.id, request.body.stepUp);
        return { ok: true as const };
      },
    );
  };
}
