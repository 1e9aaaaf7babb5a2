// Writes the OpenAPI document the server serves at /openapi.json to the file named on the command
// line (CI lints it with Redocly). Builds the app on an in-memory database; never listens.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi-document.js';

const out = process.argv[2];
if (!out) throw new Error('usage: write-openapi.ts <file>');
writeFileSync(out, JSON.stringify(await buildOpenApiDocument(), null, 2));
