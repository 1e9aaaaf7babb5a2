// TypeScript types of the API (openapi-typescript), for openapi-fetch clients: the text of
// clients/hearth-api.d.ts for a document. test/app/openapi-client.test.ts fails when the file is stale.
import openapiTS, { astToString } from 'openapi-typescript';

export const API_TYPES_FILE = new URL('../clients/hearth-api.d.ts', import.meta.url);

const HEADER =
  '// Generated from the OpenAPI document by `npm run openapi:types` (openapi-typescript).\n' +
  '// Do not edit: change the route schemas or src/app/openapi/, then regenerate.\n';

export async function apiTypesSource(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as never, { alphabetize: true });
  return HEADER + astToString(ast);
}
