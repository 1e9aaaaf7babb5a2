import { EVENT_NAMES, EVENT_RESOURCES } from '../../accounts/webhooks/event-names.js';

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event name, each the POST Hearth sends to a
 * registered URL (src/accounts/webhooks/payload.ts builds the body, src/accounts/webhooks/signing.ts signs it), with
 * its signature headers. docs/webhooks.md is the prose version.
 */

/** The `data` a delivery carries for the events that have one. */
const EVENT_DATA: Record<string, { description: string; schema: Record<string, unknown> }> = {
  peopleTagsCreated: {
    description: 'The tags that were added',
    schema: {
      type: 'object',
      required: ['tags'],
      properties: { tags: { type: 'array', items: { type: 'string' } } },
    },
  },
  peopleStageUpdated: {
    description: 'The stage the people moved to',
    schema: { type: 'object', required: ['stage'], properties: { stage: { type: 'string' } } },
  },
};
const REF_DATA = {
  description: 'What the reaction or reply is attached to',
  schema: {
    type: 'object',
    properties: {
      refType: { type: 'string', description: 'e.g. note, call, email' },
      refId: { type: 'integer' },
      refUri: { type: 'string', format: 'uri' },
    },
  },
};
for (const name of EVENT_NAMES)
  if (name.startsWith('reaction') || name.startsWith('threadedReply')) EVENT_DATA[name] = REF_DATA;

export const SIGNATURE_DESCRIPTION =
  'Every delivery is signed twice with the system key of the system that registered the webhook ' +
  '(the X-System-Key sent when registering). Verify against the raw body bytes, before parsing. ' +
  '(1) `Hearth-Signature` (header name set by HEARTH_SIGNATURE_HEADER): lowercase hex ' +
  'HMAC-SHA256, keyed with the system key, over the base64 of the raw body. ' +
  '(2) Standard Webhooks: `webhook-id` (the eventId), `webhook-timestamp` (Unix seconds) and ' +
  '`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the system ' +
  "key's UTF-8 bytes (a Standard Webhooks library takes `whsec_` + base64(system key)). " +
  'Answer 2xx within 10 s; failures are retried for 8 hours; 406 or 410 deletes the webhook. ' +
  'Deliveries may arrive out of order and more than once: deduplicate on eventId and read ' +
  'the current state from `uri`.';

const header = (description: string, schema: Record<string, unknown>) => ({
  required: true,
  description,
  schema,
});

/** Component schemas the webhooks section refers to. */
export function webhookComponents(): Record<string, unknown> {
  return {
    WebhookEventName: {
      type: 'string',
      enum: [...EVENT_NAMES],
      description: 'The name of a webhook event (what a webhook subscribes to)',
    },
    WebhookPayload: {
      type: 'object',
      description: 'The JSON body of a webhook delivery',
      required: ['eventId', 'eventCreated', 'event', 'resourceIds', 'uri'],
      properties: {
        eventId: {
          type: 'string',
          format: 'uuid',
          description: 'Unique per delivery; the same on retries. Also GET /v1/webhookEvents/{id}',
        },
        eventCreated: {
          type: 'string',
          format: 'date-time',
          description: 'When the change happened',
        },
        event: { $ref: '#/components/schemas/WebhookEventName' },
        resourceIds: {
          type: 'array',
          items: { type: 'integer' },
          maxItems: 100,
          description: 'The changed records (a larger change is split into several deliveries)',
        },
        uri: {
          type: ['string', 'null'],
          description:
            'GETs the changed records with your credentials; null when the records are gone',
        },
        data: { type: 'object', description: 'Event details, for the events that have them' },
      },
    },
  };
}

function example(name: string): Record<string, unknown> {
  const path = EVENT_RESOURCES[name as keyof typeof EVENT_RESOURCES];
  // Two records: every resource is then fetched with ?id= (payload.ts, eventUri).
  const uri = path === null ? null : `https://hearth.example.com${path}?id=12,15`;
  const body: Record<string, unknown> = {
    eventId: '0b7c5e4e-3f0a-4a53-9d0e-5f1c2b7a9e41',
    eventCreated: '2026-03-01T12:00:00+00:00',
    event: name,
    resourceIds: [12, 15],
    uri,
  };
  if (name === 'peopleTagsCreated') body.data = { tags: ['vip'] };
  if (name === 'peopleStageUpdated') body.data = { stage: 'Hot Prospect' };
  if (EVENT_DATA[name] === REF_DATA)
    body.data = { refType: 'note', refId: 7, refUri: 'https://hearth.example.com/v1/notes/7' };
  return body;
}

/** The signature headers every delivery (webhook or inbox app event) carries. */
export function signatureParameters(signatureHeader: string): Record<string, unknown>[] {
  return [
    {
      in: 'header',
      name: signatureHeader,
      ...header('Lowercase hex HMAC-SHA256 (system key) over the base64 of the raw body', {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
      }),
    },
    {
      in: 'header',
      name: 'webhook-id',
      ...header('The eventId', { type: 'string', format: 'uuid' }),
    },
    {
      in: 'header',
      name: 'webhook-timestamp',
      ...header('When the attempt was sent, Unix seconds', { type: 'string' }),
    },
    {
      in: 'header',
      name: 'webhook-signature',
      ...header('v1,<base64 HMAC-SHA256 of "id.timestamp.body"> (Standard Webhooks)', {
        type: 'string',
      }),
    },
  ];
}

/** `webhooks`: one POST per event name, with its payload, signature headers and answers. */
export function webhooksSection(signatureHeader: string): Record<string, unknown> {
  const section: Record<string, unknown> = {};
  for (const name of EVENT_NAMES) {
    const data = EVENT_DATA[name];
    const path = EVENT_RESOURCES[name as keyof typeof EVENT_RESOURCES];
    const schema = {
      allOf: [
        { $ref: '#/components/schemas/WebhookPayload' },
        {
          type: 'object',
          properties: {
            event: { const: name },
            ...(data ? { data: { ...data.schema, description: data.description } } : {}),
          },
          ...(data ? { required: ['data'] } : {}),
        },
      ],
    };
    section[name] = {
      post: {
        operationId: `webhook${name.charAt(0).toUpperCase()}${name.slice(1)}`,
        summary: `${name}: sent to the webhooks registered for it`,
        description:
          (path
            ? `\`uri\` GETs the records from ${path}. `
            : '`uri` is null: the records are gone. ') + SIGNATURE_DESCRIPTION,
        tags: ['webhooks'],
        security: [],
        parameters: signatureParameters(signatureHeader),
        requestBody: {
          required: true,
          content: { 'application/json': { schema, example: example(name) } },
        },
        responses: {
          '200': { description: 'Any 2xx within 10 seconds acknowledges the delivery' },
          '406': { description: 'Deletes the webhook' },
          '410': { description: 'Deletes the webhook' },
        },
      },
    };
  }
  return section;
}
