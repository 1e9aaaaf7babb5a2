import { Type } from '@sinclair/typebox';
import { MAX_ID, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageMetadata, PageQuery } from '../../platform/http/pagination.js';
import { EM_EVENT_TYPES, MAX_EVENTS_PER_REQUEST } from './emEvents.types.js';

const IdRef = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });

export const EmEventTypeSchema = Type.Union(
  EM_EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'One of the email marketing event types' },
);

export const EmEventIn = Type.Object(
  {
    type: EmEventTypeSchema,
    campaignId: IdRef('id of a campaign of the account (POST /v1/emCampaigns returns it)'),
    personId: Type.Optional(
      IdRef('The person the email went to; when absent, recipient finds them'),
    ),
    recipient: Type.Optional(
      Type.String({
        maxLength: 320,
        description: 'Email address the email went to; finds the person when personId is absent',
      }),
    ),
    occurred: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'When it happened, ISO 8601 (a time without offset is UTC); default: now',
      }),
    ),
    userId: Type.Optional(IdRef('User the email was sent from; default: the authenticated user')),
    url: Type.Optional(
      Type.String({ maxLength: 2000, description: 'The link clicked (click events)' }),
    ),
  },
  { additionalProperties: false },
);

export const EmEventsCreateBody = Type.Object(
  {
    emEvents: Type.Array(EmEventIn, {
      minItems: 1,
      maxItems: MAX_EVENTS_PER_REQUEST,
      description: `1 to ${MAX_EVENTS_PER_REQUEST} events`,
    }),
    ...SystemField,
  },
  {
    additionalProperties: false,
    description:
      'All events are stored in one transaction, or none: an invalid event (unknown campaign, unknown user, a personId you cannot ' +
      'see, a bad date, neither personId nor recipient) answers 400 naming each bad event by index and field. An event whose ' +
      'recipient matches no person you can see is not stored; its address is listed in recipientsNotFound. ' +
      'unsubscribe and spamreport mark the address Unsubscribed, hard-bounce marks it Bad (the recipient address when given, else ' +
      "the person's primary email; peopleUpdated fires when a status changes). open and click move the person's lastActivity forward. " +
      'Webhooks: open → emEventsOpened, click → emEventsClicked, unsubscribe → emEventsUnsubscribed.',
  },
);

export const EmEventsCreated = Type.Object({
  emEventIds: Type.Array(Type.Integer(), {
    description: 'Ids of the stored events, in the order they were sent',
  }),
  recipientsNotFound: Type.Array(Type.String(), {
    description: 'Recipients that matched no person (each once); their events were not stored',
  }),
});

export const EmEvent = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  type: Type.String(),
  occurred: Type.String(),
  campaignId: Type.Integer(),
  personId: Type.Integer(),
  userId: Nullable(Type.Integer()),
  recipient: Type.String(),
  url: Type.String(),
  system: Type.String({
    description: 'System identification of the request that recorded the event',
  }),
});

const rate = (what: string) =>
  Nullable(Type.Number({ description: `${what}; null when the denominator is 0` }));

export const EmStats = Type.Object(
  {
    sends: Type.Integer({ description: 'delivered events' }),
    opens: Type.Integer({ description: 'open events' }),
    uniqueOpens: Type.Integer({ description: 'people who opened, counted once per campaign' }),
    clicks: Type.Integer({ description: 'click events' }),
    uniqueClicks: Type.Integer({ description: 'people who clicked, counted once per campaign' }),
    bounces: Type.Integer({ description: 'bounced + soft-bounce + hard-bounce events' }),
    softBounces: Type.Integer(),
    hardBounces: Type.Integer(),
    unsubscribes: Type.Integer(),
    spamReports: Type.Integer(),
    dropped: Type.Integer(),
    rates: Type.Object(
      {
        openRate: rate('uniqueOpens / sends'),
        clickRate: rate('uniqueClicks / sends'),
        clickToOpenRate: rate('uniqueClicks / uniqueOpens'),
        bounceRate: rate('bounces / (sends + bounces)'),
        unsubscribeRate: rate('unsubscribes / sends'),
        spamReportRate: rate('spamReports / sends'),
      },
      { description: 'Fractions between 0 and 1, rounded to 4 decimals' },
    ),
  },
  {
    description:
      'Statistics of email marketing events: built-in and third-party combined (every recorded event counts, whichever system ' +
      'recorded it). Agents and Lenders count only the events of people they can see.',
  },
);

export const EmEventsList = Type.Object({
  _metadata: PageMetadata,
  emEvents: Type.Array(EmEvent),
  /** Statistics of the events matching campaignId and personId (the type and id filters narrow the list only). */
  stats: EmStats,
});

export const EmEventListQuery = Type.Object(
  {
    ...PageQuery,
    id: Type.Optional(Type.String({ description: 'Comma-separated event ids' })),
    type: Type.Optional(
      Type.String({ description: 'An event type, or several separated by commas' }),
    ),
    personId: Type.Optional(IdRef('Events of this person')),
    campaignId: Type.Optional(IdRef('Events of this campaign')),
    sort: Type.Optional(
      Type.String({ description: 'id or occurred; -field for descending (default -id)' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const EmCampaignStats = Type.Object({ campaignId: Type.Integer(), stats: EmStats });
