/**
 * The protected resources a token may be bound to (RFC 8707): the MCP endpoint. A token asked for
 * without `resource` is a REST API token, as before.
 */
export const mcpResourceUrl = (publicUrl: string): string => `${publicUrl}/mcp`;

export const knownResources = (publicUrl: string): readonly string[] => [mcpResourceUrl(publicUrl)];
