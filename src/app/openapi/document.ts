import { EVENT_TYPES } from '../../leads/events/events.types.js';
import { OPERATIONS } from './operations.js';
import { PARAMETER_DESCRIPTIONS } from './parameters.js';
import { addExamples } from './examples.js';

type Json = Record<string, unknown>;
interface Parameter {
  in: string;
  name: string;
  description?: string;
  schema?: Json;
  $ref?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Json> };
  responses?: Record<string, { content?: Record<string, Json> }>;
  'x-hearth-route'?: { method: string; url: string; auth: string; roles?: string[] };
}

export function documentInfo(): Json {
  return {
    title: 'Hearth API',
    version: '1.0.0',
    license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
    description: [
      'Contact and lead management for real-estate teams.',
      '',
      '**Authentication.** HTTP Basic with your API key as the user name and any password, or an ' +
        'OAuth 2.0 access token (`Authorization: Bearer …`, authorization code grant, docs/oauth.md). ' +
        'What a caller sees follows its role: Agents and Lenders see the people assigned to them, ' +
        'shared with them or in their ponds; role gates are named on each operation.',
      '',
      '**Systems.** Integrations name themselves with `X-System` (or a `system` query argument or ' +
        'body key) and prove it with `X-System-Key`: a verified system gets higher rate limits, ' +
        'and webhooks belong to and are signed by a system.',
      '',
      '**Errors** are JSON: `{"errorMessage": "…", "errorCode": "…", "errors": [{"field", "message"}], ' +
        '"requestId": "…"}`. Each operation lists only the statuses it can answer.',
      '',
      '**Lists** answer `{"_metadata": {collection, offset, limit, total, next, nextLink}, ' +
        '"<collection>": [...]}`; follow `next` (a cursor) rather than raising `offset`. ' +
        '`next` and `nextLink` are absent on the last page.',
      '',
      '**Idempotency.** Every POST under /v1 takes an `Idempotency-Key`: a retry with the same key ' +
        'and body gets the first answer again (24 hours) without the work being done twice.',
      '',
      '**Rate limits** per system and context; every /v1 answer carries the limit headers and a 429 ' +
        'carries `Retry-After`.',
    ].join('\n'),
  };
}

export const TAGS = [
  ['people', 'Contacts: search, create, update, merge, delete'],
  ['events', 'Lead events: how websites and lead sources send new leads and their activity'],
  ['notes', 'Notes on people'],
  ['calls', 'Logged phone calls'],
  ['emails', 'Logged emails'],
  ['textMessages', 'Logged text messages'],
  ['tasks', 'Tasks on people'],
  ['appointments', 'Appointments with people'],
  ['deals', 'Deals in pipelines'],
  ['pipelines', 'Deal pipelines and their stages'],
  ['stages', 'Person stages'],
  ['webhooks', 'Webhooks: changes pushed to an integration (see the webhooks section)'],
  ['users', 'The account’s users'],
  ['groups', 'Groups and round-robin assignment'],
  ['leadFlows', 'Where new leads from each source go'],
  [
    'inboundEmails',
    'Leads by email: lead addresses, received messages, their review and historic (mbox) parsing (docs/lead-email.md)',
  ],
  ['ponds', 'Shared lead ponds'],
  ['teams', 'Teams'],
  ['templates', 'Email templates'],
  ['textMessageTemplates', 'Text message templates'],
  ['email marketing', 'Email campaigns and their events'],
  ['actionPlans', 'Action plans'],
  ['smartLists', 'Saved people filters'],
  ['reports', 'Team reports: agent activity, lead sources, uncontacted leads, pipeline'],
  ['rateLimit', 'Rate limits and usage'],
  ['oauth', 'OAuth 2.0 authorization'],
  ['auth', 'Web app sign-in (session cookie)'],
  ['health', 'Liveness and readiness'],
].map(([name, description]) => ({ name, description }));

export function documentParameters(): Json {
  return {
    IdempotencyKey: {
      in: 'header',
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the POST safe to retry: the same key with the same request gets the stored answer ' +
        '(24 hours, per account) with `Idempotent-Replayed: true`; with another request, a 422; ' +
        'while the first is still running, a 409.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      example: '5f0c6c1e-4ad4-4c2b-9a53-2b0e1f5d9a10',
    },
  };
}

const SUCCESS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted: the work goes on in the background',
  '204': 'Done (no body)',
  '302': 'Redirect',
};

const ROLE_NOTE = (roles: readonly string[]) =>
  roles.length === 1 ? `Only the ${roles[0]} role.` : `Roles: ${roles.join(', ')}.`;

/**
 * Enumerations the validators check in code (with messages of their own, and for event types any
 * spelling such as "viewedProperty"): the documented values are the canonical ones.
 */
function addEnums(schemas: Record<string, Json>): void {
  const eventName = { $ref: '#/components/schemas/WebhookEventName' };
  for (const name of [
    'Webhook',
    'WebhookEvent',
    'Attempt',
    'CreateWebhookBody',
    'UpdateWebhookBody',
  ]) {
    const props = schemas[name]?.properties as Record<string, Json> | undefined;
    if (props?.event) props.event = { ...eventName, description: props.event.description };
  }
  const eventProps = schemas.EventBody?.properties as Record<string, Json> | undefined;
  if (eventProps?.type)
    eventProps.type = {
      ...eventProps.type,
      enum: [...EVENT_TYPES],
      description:
        'The lead event type; other spellings (case, spaces, "viewedProperty") are accepted, and ' +
        "'Inquiry' becomes Property Inquiry with a property, General Inquiry without",
    };
}

export function finishOperation(path: string, method: string, operation: Operation): void {
  const route = operation['x-hearth-route'];
  delete operation['x-hearth-route'];
  const entry = OPERATIONS[`${method.toUpperCase()} ${path}`];
  const notes: string[] = [];
  if (route?.roles) notes.push(ROLE_NOTE(route.roles));
  if (route?.auth === 'system') notes.push('Authenticated by X-System and X-System-Key alone.');
  const base = entry?.description ?? operation.description ?? operation.summary ?? '';
  operation.description = [base, ...notes].filter(Boolean).join('\n\n');
  if (method === 'post' && path.startsWith('/v1/'))
    operation.parameters = [
      ...(operation.parameters ?? []),
      { $ref: '#/components/parameters/IdempotencyKey' } as Parameter,
    ];
  for (const parameter of operation.parameters ?? []) {
    if (parameter.$ref || parameter.description) continue;
    parameter.description =
      PARAMETER_DESCRIPTIONS[`${path} ${parameter.name}`] ??
      PARAMETER_DESCRIPTIONS[parameter.name] ??
      `The ${parameter.name} ${parameter.in === 'path' ? 'of the record' : 'filter'}`;
  }
  if (entry?.request !== undefined) {
    const media = operation.requestBody?.content?.['application/json'];
    if (media) media.example = entry.request;
  }
  if (entry?.response !== undefined) {
    const status = Object.keys(operation.responses ?? {}).find((s) => /^2/.test(s));
    const media = status && operation.responses?.[status]?.content?.['application/json'];
    if (media) media.example = entry.response;
  }
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const r = response as { description?: string };
    if (r.description === 'Default Response') r.description = SUCCESS[status] ?? 'OK';
  }
  for (const parameter of operation.parameters ?? []) {
    if (path.startsWith('/v1/webhooks') && parameter.name === 'event' && parameter.schema)
      parameter.schema = { $ref: '#/components/schemas/WebhookEventName' };
  }
}

/** Descriptions, examples, idempotency keys and enums on every operation of the document. */
export function describeDocument(document: Json): void {
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>))
      finishOperation(path, method, operation);
  }
  addEnums((document.components as { schemas: Record<string, Json> }).schemas);
  addExamples(document);
}
