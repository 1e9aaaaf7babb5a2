import { Type } from '@sinclair/typebox';
import { MAX_ID, Nullable } from '../../platform/http/schemas.js';

export const MAX_PERSON_IDS = 10_000;

export const CampaignSendBody = Type.Object(
  {
    personIds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
        maxItems: MAX_PERSON_IDS,
        description: 'The people to send to (those you may see); or give smartListId',
      }),
    ),
    smartListId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description: 'Send to everyone the smart list finds for you now',
      }),
    ),
    sendAt: Type.Optional(
      Type.String({
        description: 'ISO 8601 date-time to send at (a time without zone is UTC); default now',
      }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const CampaignSendProgress = Type.Object({
  id: Type.Integer(),
  status: Type.String({
    description:
      'scheduled, sending, done, or cancelled (POST /v1/emCampaigns/:id/send/cancel; `pending` then counts only messages already being handed over)',
  }),
  cancelledAt: Nullable(Type.String()),
  cancelledBy: Type.String({ description: 'Name of the user who cancelled the send' }),
  sendAt: Type.String(),
  created: Type.String(),
  finished: Nullable(Type.String()),
  total: Type.Integer({ description: 'Recipients' }),
  pending: Type.Integer({ description: 'Not yet worked on (or waiting to retry)' }),
  sent: Type.Integer({ description: 'Accepted by the SMTP server' }),
  skipped: Type.Integer({ description: 'No email address, Trash stage or deleted' }),
  dropped: Type.Integer({ description: 'Unsubscribed, reported spam or hard-bounced before' }),
  hardBounced: Type.Integer(),
  softBounced: Type.Integer(),
  cancelled: Type.Integer({ description: 'Not sent because the send was cancelled' }),
});

export const CampaignEmailsOfPerson = Type.Object({
  campaignEmails: Type.Array(
    Type.Object({
      campaignId: Type.Integer(),
      campaignName: Type.String(),
      origin: Type.String(),
      status: Nullable(
        Type.String({
          description: 'Outcome of the built-in send; null for third-party campaigns',
        }),
      ),
      reason: Type.String(),
      sentAt: Nullable(Type.String()),
      events: Type.Array(
        Type.Object({
          type: Type.String(),
          occurred: Type.String(),
          url: Type.String(),
          system: Type.String(),
        }),
      ),
    }),
  ),
});

export const SendPreview = Type.Object({
  recipients: Type.Integer({
    description:
      "People the send would go to now (the send's total; those without an email are skipped then)",
  }),
  from: Nullable(
    Type.String({
      description: 'The sender recipients would see, e.g. "Ava Stone <ava@example.com>"',
    }),
  ),
});

export const TestSendBody = Type.Optional(
  Type.Object(
    {
      mergePersonId: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_ID,
          description: 'Merge the fields for this person (default: no contact, you as the agent)',
        }),
      ),
      system: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
);

export const TestSendResult = Type.Object({
  to: Type.String({ description: 'Your own address: a test goes nowhere else' }),
  from: Type.String(),
  subject: Type.String(),
});
