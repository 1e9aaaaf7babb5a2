import type { FastifyInstance } from 'fastify';
import { notFound } from '../../platform/http/errors.js';
import { renderReference } from './reference-page.js';

/**
 * /docs: the API reference, rendered on the server from the OpenAPI document the first time it is
 * asked for (the document does not change while the server runs): /docs lists every operation,
 * /docs/<tag> describes that tag's operations. No script, nothing from another origin: the page
 * CSP of security-headers.ts holds as it is.
 */
export function registerDocsPage(app: FastifyInstance): void {
  let pages: Map<string, string> | undefined;
  const send = (slug: string) => {
    pages ??= renderReference(app.swagger() as never);
    const page = pages.get(slug);
    if (page === undefined) throw notFound(`The reference page ${slug}`);
    return page;
  };
  const options = { schema: { hide: true }, config: { auth: 'none' as const } };
  app.get('/docs', options, (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(send('')),
  );
  app.get<{ Params: { page: string } }>('/docs/:page', options, (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(send(request.params.page)),
  );
}
