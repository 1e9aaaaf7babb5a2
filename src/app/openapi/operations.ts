/**
 * What the route schemas do not say about an operation: a longer description and examples of its
 * request and success answer, keyed by `METHOD /path` as the document writes paths. Redocly checks
 * the examples against the operation's schemas (no-invalid-media-type-examples), as does
 * test/app/openapi-document.test.ts. Every other example is made from the schemas (examples.ts);
 * operations without a description here are described by their summary and what their route
 * declares (roles, system).
 */
export interface OperationDoc {
  description?: string;
  request?: unknown;
  response?: unknown;
}

export const OPERATIONS: Record<string, OperationDoc> = {
  'POST /v1/events': {
    description:
      'The way to send leads: a website registration, an inquiry, a property view or search, an ' +
      'open-house visit. The person is matched by email or phone (or created), the event is ' +
      "recorded on their timeline, and a new lead goes through the source's lead flow (assignment, " +
      'action plan, notifications). 201 with the person when they were created, 200 when an existing ' +
      'person was matched, 204 when the lead flow of the source is archived (the event is ignored).',
    request: {
      type: 'Property Inquiry',
      source: 'zillow.com',
      system: 'MySite',
      message: 'Is this still available?',
      person: {
        firstName: 'Ann',
        lastName: 'Lee',
        emails: [{ value: 'ann@example.com' }],
        phones: [{ value: '555-0100' }],
        tags: ['buyer'],
      },
      property: { street: '12 Elm St', city: 'Springfield', state: 'IL', price: 450000 },
    },
  },
  'GET /v1/people': {
    description:
      'People visible to the caller (Agents and Lenders: their own, shared and pond people), ' +
      'filtered (filters combine with AND), sorted and paginated. Follow `_metadata.next` for the ' +
      'next page; `fields` picks the fields (custom fields by name, or `allFields`).',
  },
  'POST /v1/people': {
    description:
      'Creates a person without lead automation (no lead flow, no action plan): to send a new lead, ' +
      'use POST /v1/events. Emails and phones are matched for duplicates by ' +
      'GET /v1/people/checkDuplicate.',
    request: {
      firstName: 'Ann',
      lastName: 'Lee',
      source: 'Open house',
      emails: [{ value: 'ann@example.com', type: 'home' }],
      tags: ['buyer'],
    },
  },
  'POST /v1/peopleBulkActions': {
    description:
      'Acts on many people as one background job: `assign` (value: a user id), `addTag` or ' +
      '`removeTag` (value: the tag), `stage` (value: a stage id) or `delete`. The people are fixed ' +
      'when asked: those of `personIds` the caller sees, or every person GET /v1/people lists with ' +
      '`filter` (the same filters). Each person is then changed with the rules of PUT and DELETE ' +
      '/v1/people/:id as the caller holds them at that moment (a person no longer visible is ' +
      'skipped, one the rules refuse is listed in `errors`). People are changed a chunk per ' +
      'transaction with the progress, so a worker that stops resumes where the last chunk ended; ' +
      'webhooks fire in groups of ids (interface rule 9). A hand-over moves open tasks and sends ' +
      'the new agent one notification. Send an Idempotency-Key to make a retry safe. Answers 202; ' +
      'follow GET /v1/peopleBulkActions/{id}.',
    request: { action: 'addTag', value: 'Spring mailer', filter: { stageId: 2, tags: 'buyer' } },
  },
  'GET /v1/people/{id}': {
    description:
      'One person, if visible to the caller (404 otherwise, whether or not the person exists). ' +
      '`fields=allFields` adds the custom fields.',
  },
  'POST /v1/notes': {
    request: { personId: 12, subject: 'Call back', body: 'Wants a viewing on Saturday.' },
    response: {
      id: 40,
      created: '2026-03-01T12:00:00Z',
      updated: '2026-03-01T12:00:00Z',
      createdBy: 'Sam Agent',
      createdById: 3,
      updatedBy: 'Sam Agent',
      updatedById: 3,
      personId: 12,
      subject: 'Call back',
      body: 'Wants a viewing on Saturday.',
      isHtml: false,
    },
  },
  'POST /v1/webhooks': {
    description:
      'Subscribes the calling system to an event: Hearth then POSTs a signed delivery (see the ' +
      '`webhooks` section) to `url` whenever it happens in this account. The system is named by ' +
      'X-System and proven by X-System-Key, which also signs the deliveries. At most 2 webhooks ' +
      'per event per system; the URL must be https and resolve to a public address.',
    request: { event: 'peopleCreated', url: 'https://crm.example.com/hearth/hooks' },
  },
  'GET /v1/webhooks': {
    description: "The calling system's webhooks in this account (X-System names the system).",
  },
  'POST /oauth/token': {
    request: {
      grant_type: 'authorization_code',
      code: 'hac_1e4f7a9b2c3d',
      redirect_uri: 'https://app.example.com/oauth/callback',
      client_id: 'hoc_3fa85f64d1b0',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    },
  },
};
