/**
 * The API reference at /docs as HTML pages rendered on the server from the OpenAPI document:
 * tags, operations (route, description, parameters, request body, answers, examples), webhook
 * deliveries and their payloads. No script at all, so a page is on screen as soon as it is parsed
 * (the client-side renderer it replaced spent 10–30 s on the 750 KiB document: bench/docs-load.ts).
 */

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
  $ref?: string;
}
interface Media {
  schema?: Json;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
  security?: Record<string, string[]>[];
}
interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Json>; parameters?: Record<string, Parameter> };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The little Markdown the document's descriptions use: `code`, **bold**, paragraphs. */
const inline = (text: string) =>
  escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

function markdown(text = ''): string {
  return text
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => `<p>${inline(p)}</p>`)
    .join('');
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const anchor = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-');

/** A schema's type in a few words: `string`, `integer or null`, `array of Person`, `Deal`. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(branches))
    return branches.every((b) => b.const !== undefined)
      ? `one of ${branches.map((b) => JSON.stringify(b.const)).join(', ')}`
      : branches.map(typeOf).join(' or ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return types
    .filter(Boolean)
    .map((t) => (t === 'array' ? `array of ${typeOf(schema.items as Json)}` : t))
    .join(' or ');
}

function resolve(schema: Json | undefined, doc: OpenApiDocument): Json | undefined {
  if (typeof schema?.$ref !== 'string') return schema;
  return doc.components.schemas?.[refName(schema.$ref)];
}

function propertiesTable(schema: Json | undefined, doc: OpenApiDocument): string {
  const resolved = resolve(schema, doc);
  const properties = resolved?.properties as Record<string, Json> | undefined;
  if (!properties) return schema ? `<p>${escape(typeOf(schema))}</p>` : '';
  const required = new Set((resolved?.required as string[] | undefined) ?? []);
  const rows = Object.entries(properties).map(
    ([name, property]) =>
      `<tr><td><code>${escape(name)}</code>${required.has(name) ? ' <em>required</em>' : ''}</td>` +
      `<td>${escape(typeOf(property))}</td><td>${inline(String(property.description ?? ''))}</td></tr>`,
  );
  const title = typeof schema?.$ref === 'string' ? `<p>${escape(refName(schema.$ref))}</p>` : '';
  return `${title}<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const example = (media: Media | undefined) =>
  media?.example === undefined
    ? ''
    : `<details><summary>Example</summary><pre>${escape(JSON.stringify(media.example, null, 2))}</pre></details>`;

function parametersTable(parameters: Parameter[], doc: OpenApiDocument): string {
  if (!parameters.length) return '';
  const rows = parameters.map((p) => {
    const parameter = p.$ref ? (doc.components.parameters?.[refName(p.$ref)] ?? p) : p;
    return (
      `<tr><td><code>${escape(parameter.name)}</code>${parameter.required ? ' <em>required</em>' : ''}</td>` +
      `<td>${escape(parameter.in)}</td><td>${escape(typeOf(parameter.schema))}</td>` +
      `<td>${inline(parameter.description ?? '')}</td></tr>`
    );
  });
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function operationSection(
  method: string,
  path: string,
  operation: Operation,
  doc: OpenApiDocument,
): string {
  const id = operationId(method, path, operation);
  const body = operation.requestBody?.content?.['application/json'];
  const responses = Object.entries(operation.responses ?? {}).map(([status, response]) => {
    const media = response.content?.['application/json'];
    const success = /^2/.test(status);
    return (
      `<li><strong>${escape(status)}</strong> ${escape(response.description ?? '')}` +
      (success && media ? propertiesTable(media.schema, doc) + example(media) : '') +
      '</li>'
    );
  });
  const security = operation.security?.length
    ? `<p class="auth">Authentication: ${operation.security.map((s) => escape(Object.keys(s).join(' + ') || 'none')).join(' or ')}</p>`
    : '';
  return (
    `<section class="operation" id="${id}" aria-labelledby="${id}-title">` +
    `<h3 id="${id}-title">${escape(operation.summary ?? `${method.toUpperCase()} ${path}`)}</h3>` +
    `<p class="route"><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></p>` +
    (operation.description === operation.summary ? '' : markdown(operation.description)) +
    security +
    parametersTable(operation.parameters ?? [], doc) +
    (body ? `<h4>Request body</h4>${propertiesTable(body.schema, doc)}${example(body)}` : '') +
    `<h4>Answers</h4><ul class="responses">${responses.join('')}</ul>` +
    '</section>'
  );
}

const STYLE = `
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1c1f24;background:#fff;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:240px;flex:none;padding:16px;box-sizing:border-box;border-right:1px solid #dde1e6;background:#f6f8fa}
nav ul{list-style:none;padding:0;margin:0}nav a{display:block;padding:2px 0;color:#1f4f8a;text-decoration:none}
main{padding:24px 40px;max-width:1000px;min-width:0}
h2{border-bottom:2px solid #dde1e6;margin-top:48px}
.operation{border-top:1px solid #dde1e6;padding:8px 0 16px;content-visibility:auto;contain-intrinsic-size:auto 600px}
.method{display:inline-block;min-width:56px;font-weight:700;font-family:ui-monospace,monospace}
.get{color:#1a7f37}.post{color:#1f4f8a}.put,.patch{color:#8a5a00}.delete{color:#b42318}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #dde1e6;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}code,pre{font-family:ui-monospace,monospace;font-size:13px}
pre{background:#f6f8fa;padding:12px;overflow:auto}summary{cursor:pointer;color:#1f4f8a}
@media (max-width:700px){body{display:block}nav{position:static;height:auto;width:auto}main{padding:16px}}
`;

/** The slug of a tag's page: `email marketing` → `email-marketing`. */
export const tagSlug = (tag: string) => anchor(tag);
const WEBHOOKS_SLUG = 'webhook-deliveries';

function layout(doc: OpenApiDocument, title: string, nav: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<nav aria-label="API sections"><p><a href="/docs"><strong>${escape(doc.info.title)}</strong></a> ${escape(doc.info.version)}</p><ul>${nav}</ul>
<p><a href="/openapi.json">OpenAPI document (JSON)</a></p></nav>
<main>
${main}
</main>
</body>
</html>
`;
}

function operationsByTag(doc: OpenApiDocument): Map<string, [string, string, Operation][]> {
  const byTag = new Map<string, [string, string, Operation][]>();
  for (const tag of doc.tags ?? []) byTag.set(tag.name, []);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)?.push([method, path, operation]);
    }
  }
  for (const [tag, operations] of byTag) if (!operations.length) byTag.delete(tag);
  return byTag;
}

function navigation(byTag: Map<string, unknown[]>): string {
  return [...byTag.keys()]
    .map((tag) => `<li><a href="/docs/${tagSlug(tag)}">${escape(tag)}</a></li>`)
    .concat(`<li><a href="/docs/${WEBHOOKS_SLUG}">Webhook deliveries</a></li>`)
    .join('');
}

const operationId = (method: string, path: string, operation: Operation) =>
  anchor(operation.operationId ?? `${method}-${path}`);

/**
 * The reference as pages: /docs (the introduction and every operation by tag, each a link to its
 * section) and one page per tag (/docs/people…) plus /docs/webhook-deliveries. Keyed by the slug
 * after /docs/ ('' for the index); built at once, the document being fixed while the server runs.
 */
export function renderReference(doc: OpenApiDocument): Map<string, string> {
  const byTag = operationsByTag(doc);
  const nav = navigation(byTag);
  const pages = new Map<string, string>();
  const descriptions = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
  const contents = [...byTag].map(([tag, operations]) => {
    const links = operations.map(
      ([method, path, operation]) =>
        `<li><a href="/docs/${tagSlug(tag)}#${operationId(method, path, operation)}">` +
        `${escape(operation.summary ?? `${method.toUpperCase()} ${path}`)}</a> ` +
        `<code>${method.toUpperCase()} ${escape(path)}</code></li>`,
    );
    return (
      `<section aria-labelledby="tag-${tagSlug(tag)}"><h2 id="tag-${tagSlug(tag)}">${escape(tag)}</h2>` +
      `${markdown(descriptions.get(tag))}<ul class="contents">${links.join('')}</ul></section>`
    );
  });
  pages.set(
    '',
    layout(
      doc,
      `${doc.info.title} reference`,
      nav,
      `<h1>${escape(doc.info.title)}</h1>${markdown(doc.info.description)}${contents.join('')}`,
    ),
  );
  for (const [tag, operations] of byTag) {
    const sections = operations.map(([method, path, operation]) =>
      operationSection(method, path, operation, doc),
    );
    pages.set(
      tagSlug(tag),
      layout(
        doc,
        `${tag} · ${doc.info.title} reference`,
        nav,
        `<h1>${escape(tag)}</h1>${markdown(descriptions.get(tag))}${sections.join('')}`,
      ),
    );
  }
  const webhooks = Object.entries(doc.webhooks ?? {}).map(([name, item]) => {
    const delivery = item.post;
    const media = delivery?.requestBody?.content?.['application/json'];
    return (
      `<section class="operation" id="${anchor(name)}" aria-labelledby="${anchor(name)}-title">` +
      `<h3 id="${anchor(name)}-title">${escape(name)}</h3>${markdown(delivery?.description)}` +
      `${parametersTable(delivery?.parameters ?? [], doc)}${example(media)}</section>`
    );
  });
  pages.set(
    WEBHOOKS_SLUG,
    layout(
      doc,
      `Webhook deliveries · ${doc.info.title} reference`,
      nav,
      `<h1>Webhook deliveries</h1>${webhooks.join('')}`,
    ),
  );
  return pages;
}
