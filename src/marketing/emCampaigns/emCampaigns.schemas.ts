import { Type } from '@sinclair/typebox';
import { MAX_ID, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { CampaignSendProgress } from '../emailSending/send.schemas.js';

export const EmCampaign = Type.Object({
  id: Type.Integer({ description: 'Send it as campaignId with POST /v1/emEvents' }),
  created: Type.String(),
  updated: Type.String(),
  origin: Type.String({ description: 'Name of the sending system' }),
  originId: Type.String({
    description: "The sending system's own identifier; origin + originId is unique in the account",
  }),
  name: Type.String(),
  subject: Type.String({
    description: 'May hold %merge_fields%; applied when mergePersonId is given',
  }),
  bodyHtml: Type.String({
    description: 'May hold %merge_fields%; applied when mergePersonId is given',
  }),
  createdById: Nullable(Type.Integer()),
  lastSend: Type.Optional(
    Type.Composite([CampaignSendProgress], {
      description: 'GET /v1/emCampaigns/:id once sent by Hearth: the latest send and its progress',
    }),
  ),
});

const fields = {
  origin: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Name of the sending system, e.g. Mailchimp',
  }),
  // Numbers are accepted too: many tools identify campaigns by an integer.
  originId: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer()], {
    description: "The sending system's own identifier of the campaign",
  }),
  name: Type.String({ maxLength: 300 }),
  subject: Type.String({ maxLength: 1000 }),
  bodyHtml: Type.String({ maxLength: 500_000 }),
};

export const EmCampaignCreateBody = Type.Object(
  {
    origin: fields.origin,
    originId: fields.originId,
    name: Type.Optional(fields.name),
    subject: Type.Optional(fields.subject),
    bodyHtml: Type.Optional(fields.bodyHtml),
    ...SystemField,
  },
  {
    additionalProperties: false,
    description:
      'origin + originId is unique in the account. Repeating a POST with the same origin, originId, name, subject and bodyHtml ' +
      '(a retry) answers 200 with the existing campaign; the same pair with different content answers 409 naming the ' +
      'existing id, which is updated with PUT /v1/emCampaigns/:id.',
  },
);

export const EmCampaignUpdateBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    subject: Type.Optional(fields.subject),
    bodyHtml: Type.Optional(fields.bodyHtml),
    origin: Type.Optional(fields.origin),
    originId: Type.Optional(fields.originId),
    ...SystemField,
  },
  {
    additionalProperties: false,
    description:
      'Fields to change. origin and originId identify the campaign: they may be sent back unchanged but not changed.',
  },
);

export const EmCampaignListQuery = Type.Object(
  {
    ...PageQuery,
    origin: Type.Optional(Type.String({ description: 'Exact origin (sending system)' })),
    originId: Type.Optional(
      Type.String({
        description: 'Exact originId; with origin, finds the one campaign of that pair',
      }),
    ),
    sort: Type.Optional(
      Type.String({ description: 'id, name, created or updated; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const EmCampaignGetQuery = Type.Object(
  {
    mergePersonId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description:
          'Apply the merge fields of subject and bodyHtml for this person and their assigned agent (or you, when nobody is assigned)',
      }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const SystemOnlyQuery = Type.Object(
  { system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
