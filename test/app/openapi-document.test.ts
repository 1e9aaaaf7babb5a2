import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RouteOptions } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '../../scripts/openapi-document.js';

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  description?: string;
  parameters?: { name: string; in: string; description?: string; $ref?: string }[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}

/** Routes that are not part of the API and so not in the document, with the reason. */
const UNDOCUMENTED: Record<string, string> = {
  'GET /openapi.json': 'the document itself',
  'GET /docs': 'the reference pages rendering the document',
  'GET /docs/:page': 'the reference pages rendering the document',
  'GET /': 'the web app',
  'GET /*': "the web app's pages",
  'GET /assets/*': "the web app's scripts and styles",
  'GET /favicon.svg': "the web app's icon",
  'GET /e/o/:file': 'the open-tracking image in a campaign email',
  'GET /e/c/:token': 'the click-tracking link in a campaign email',
  'GET /e/u/:token': 'the unsubscribe page a campaign email links to',
  'POST /e/u/:token': 'the unsubscribe page (its form and one-click List-Unsubscribe-Post)',
  'GET /e/v/:token': 'the "view in the browser" page of a campaign email',
  'POST /e/bounces':
    "bounce reports piped in by the operator's mail server (README), not an API client's",
  'POST /e/inbound':
    'raw lead mail from a hosted inbound-mail service (docs/lead-email.md), not an API client',
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
/** `/v1/people/:id` as the document writes it: `/v1/people/{id}`. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The document against what the server really serves: every registered route is documented with
 * an operationId and descriptions, and every example matches its schema (so examples cannot
 * drift from the routes' schemas).
 */
describe('the OpenAPI document', () => {
  let document: { paths: Record<string, Record<string, Operation>>; components: Json };
  const routes: { method: string; url: string }[] = [];
  before(async () => {
    document = (await buildOpenApiDocument('https://hearth.test', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.push({ method: String(method), url: route.url });
    })) as typeof document;
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );

  it('documents every route the server registers (HEAD aside)', () => {
    const api = routes.filter((r) => r.method !== 'HEAD' && r.url.startsWith('/v1/'));
    assert.ok(api.length > 150, `only ${api.length} /v1 routes seen: is onRoute wired?`);
    const missing: string[] = [];
    for (const { method, url } of routes) {
      const name = `${method} ${url}`;
      if (method === 'HEAD' || UNDOCUMENTED[name]) continue;
      if (!document.paths[documentPath(url)]?.[method.toLowerCase()]) missing.push(name);
    }
    assert.deepEqual(missing, [], 'routes missing from the OpenAPI document');
    for (const name of Object.keys(UNDOCUMENTED))
      assert.ok(
        routes.some((r) => `${r.method} ${r.url}` === name),
        `${name} is no longer a route: drop it from UNDOCUMENTED`,
      );
  });

  it('gives every operation a unique operationId and a description, and every parameter one', () => {
    const ids = new Set<string>();
    const problems: string[] = [];
    for (const { name, operation } of operations()) {
      if (!operation.operationId) problems.push(`${name}: no operationId`);
      else if (ids.has(operation.operationId)) problems.push(`${name}: duplicate operationId`);
      ids.add(operation.operationId ?? '');
      if (!operation.description?.trim()) problems.push(`${name}: no description`);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.$ref) continue;
        if (!parameter.description?.trim())
          problems.push(`${name}: ${parameter.in} parameter ${parameter.name} has no description`);
      }
    }
    const shared = (document.components.parameters ?? {}) as Record<string, Json>;
    for (const [key, parameter] of Object.entries(shared))
      if (!parameter.description) problems.push(`components.parameters.${key}: no description`);
    assert.deepEqual(problems, []);
  });

  it('has a request and an answer example on every operation, each valid against its schema', () => {
    // The document's schemas under an id of their own, so that `#/components/…` references resolve.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const rebased = JSON.parse(
      JSON.stringify(document.components).replaceAll(
        '"#/components/',
        '"https://hearth.test/openapi.json#/components/',
      ),
    ) as Json;
    ajv.addSchema({ $id: 'https://hearth.test/openapi.json', components: rebased });
    const validatorOf = (schema: Json) =>
      ajv.compile(
        JSON.parse(
          JSON.stringify(schema).replaceAll(
            '"#/components/',
            '"https://hearth.test/openapi.json#/components/',
          ),
        ) as Json,
      );

    // The check has teeth: a person without its required fields is refused.
    assert.equal(validatorOf({ $ref: '#/components/schemas/Person' })({ id: 'twelve' }), false);

    const problems: string[] = [];
    let checked = 0;
    const check = (where: string, media: Media | undefined) => {
      if (!media?.schema) return;
      if (media.example === undefined) {
        problems.push(`${where}: no example`);
        return;
      }
      const validate = validatorOf(media.schema);
      checked += 1;
      if (!validate(media.example))
        problems.push(`${where}: ${ajv.errorsText(validate.errors, { dataVar: 'example' })}`);
    };
    for (const { name, operation } of operations()) {
      check(`${name} request`, operation.requestBody?.content?.['application/json']);
      for (const [status, response] of Object.entries(operation.responses))
        if (/^2/.test(status)) check(`${name} ${status}`, response.content?.['application/json']);
    }
    assert.deepEqual(problems, []);
    assert.ok(checked > 250, `only ${checked} examples checked`);
  });
});
