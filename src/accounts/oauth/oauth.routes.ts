import type { RoutePlugin } from '../../platform/http/route-types.js';
import { authorizeRoutes } from './authorize.routes.js';
import { tokenRoutes } from './token.routes.js';
import { metadataRoutes } from './metadata.routes.js';
import { registrationRoutes } from './registration.routes.js';

/** /oauth/authorize, /oauth/token, /oauth/register and the discovery documents: outside /v1, so no /v1 error shape and no rate limits. */
export const oauthRoutes: RoutePlugin = async (instance, options) => {
  await instance.register(authorizeRoutes, options);
  await instance.register(tokenRoutes, options);
  await instance.register(metadataRoutes, options);
  await instance.register(registrationRoutes, options);
};
