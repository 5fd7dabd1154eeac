/** Identity verification's front door (see ../README.md). */
export { adminKycRoutes, kycRoutes } from './kyc.routes';
export { createKycService, type KycService } from './kyc.service';
