export { publicRoutes } from './public.routes';
export { createPublicInfo, type PublicInfo } from './public-info';
export { siteFilesRoutes } from './site-files';
