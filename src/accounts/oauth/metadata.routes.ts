import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { mcpResourceUrl } from './resources.js';

const tags = ['oauth'];
const Metadata = Type.Object({}, { additionalProperties: true });

/**
 * Discovery for OAuth clients such as AI assistants: the authorization server's metadata
 * (RFC 8414) and the MCP endpoint's protected-resource metadata (RFC 9728), which its 401 names.
 */
export const metadataRoutes: RoutePlugin = async (instance, { ctx }) => {
  const issuer = ctx.config.publicUrl;
  const serverMetadata = {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    resource_indicators_supported: true,
    service_documentation: `${issuer}/docs`,
  };
  const resourceMetadata = {
    resource: mcpResourceUrl(issuer),
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'Hearth CRM (MCP)',
    resource_documentation: `${issuer}/docs`,
  };
  const options = (summary: string) => ({
    config: { auth: 'none' as const },
    schema: { tags, summary, security: [], response: { 200: Metadata } },
  });

  instance.get(
    '/.well-known/oauth-authorization-server',
    options('OAuth authorization server metadata (RFC 8414)'),
    async () => serverMetadata,
  );
  for (const path of [
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
  ])
    instance.get(
      path,
      options('Protected resource metadata of /mcp (RFC 9728)'),
      async () => resourceMetadata,
    );
};
