import {
  ZAdminKycDetailResponse,
  ZAdminKycDocumentParams,
  ZAdminKycIdParams,
  ZAdminKycListQuery,
  ZAdminKycListResponse,
  ZAdminKycReviewRequest,
  ZKycSideParams,
  ZKycStatusResponse,
  ZKycSubmissionResponse,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { sendPrivateFile } from '@server/lib/private-file-reply';
import { signedIn } from '@server/plugins/require-session';
import { readUpload, registerUploads } from '@server/plugins/uploads';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { KycActor, KycReviewer, KycService } from './kyc.service';

function actorOf(request: FastifyRequest): KycActor {
  return { adminId: signedIn(request).userId, ip: request.ip ?? null };
}

function reviewerOf(request: FastifyRequest): KycReviewer {
  const session = signedIn(request);
  return { ...actorOf(request), session, client: clientOf(request) };
}

/** The customer's identity verification; access `customer`. */
export function kycRoutes(kyc: KycService): FastifyPluginAsyncZod {
  return async (app) => {
    // multipart/form-data is accepted by this plugin's routes only.
    await registerUploads(app);

    app.get(
      '/api/kyc',
      { schema: { response: { 200: ZKycStatusResponse, ...ERROR_RESPONSES } } },
      async (request) => kyc.status(signedIn(request).userId),
    );

    app.post(
      '/api/kyc',
      {
        config: { multilineFields: ['address'] },
        schema: { response: { 200: ZKycSubmissionResponse, ...ERROR_RESPONSES } },
      },
      async (request) => {
        const { userId } = signedIn(request);
        const upload = await readUpload(request);
        return { submission: await kyc.submit(userId, upload) };
      },
    );

    app.get(
      '/api/kyc/documents/:side',
      { schema: { params: ZKycSideParams, response: ERROR_RESPONSES } },
      async (request, reply) => {
        const file = await kyc.ownDocument(signedIn(request).userId, request.params.side);
        return sendPrivateFile(reply, file);
      },
    );
  };
}

/** KYC review; registered inside the admin tree, so `access: 'admin'`. */
export function adminKycRoutes(kyc: KycService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/kyc',
      {
        config: { permission: 'kyc.read' },
        schema: {
          querystring: ZAdminKycListQuery,
          response: { 200: ZAdminKycListResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => kyc.list(request.query),
    );

    app.get(
      '/api/admin/kyc/:id',
      {
        config: { permission: 'kyc.read' },
        schema: {
          params: ZAdminKycIdParams,
          response: { 200: ZAdminKycDetailResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({ submission: await kyc.detail(request.params.id) }),
    );

    app.get(
      '/api/admin/kyc/:id/documents/:side',
      {
        config: { permission: 'kyc.read' },
        schema: { params: ZAdminKycDocumentParams, response: ERROR_RESPONSES },
      },
      async (request, reply) => {
        const { id, side } = request.params;
        const file = await kyc.adminDocument(actorOf(request), id, side);
        return sendPrivateFile(reply, file);
      },
    );

    app.post(
      '/api/admin/kyc/:id/review',
      {
        config: { permission: 'kyc.review', multilineFields: ['notes'] },
        schema: {
          params: ZAdminKycIdParams,
          body: ZAdminKycReviewRequest,
          response: { 200: ZAdminKycDetailResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        submission: await kyc.review(reviewerOf(request), request.params.id, request.body),
      }),
    );
  };
}
