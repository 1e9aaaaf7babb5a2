// Regenerates clients/hearth-api.d.ts from the OpenAPI document (npm run openapi:types).
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi-document.js';
import { API_TYPES_FILE, apiTypesSource } from './api-types.js';

mkdirSync(new URL('.', API_TYPES_FILE), { recursive: true });
writeFileSync(API_TYPES_FILE, await apiTypesSource(await buildOpenApiDocument()));
console.log(`wrote ${API_TYPES_FILE.pathname}`);
