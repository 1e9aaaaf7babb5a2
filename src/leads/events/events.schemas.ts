import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { personInputFields } from '../../contacts/people/people.schemas.js';

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const Num = Type.Optional(Nullable(Type.Number({ minimum: 0 })));
const NumOrText = Type.Optional(
  Nullable(Type.Union([Type.Number(), Type.String({ maxLength: 100 })])),
);

export const PropertyIn = Type.Object(
  {
    street: Text(500),
    city: Text(200),
    state: Text(100),
    code: Text(30),
    zip: Text(30),
    mlsNumber: Text(100),
    price: Num,
    forRent: Type.Optional(Bool()),
    url: Text(2000),
    type: Text(100),
    bedrooms: Num,
    bathrooms: Num,
    area: NumOrText,
    lot: NumOrText,
  },
  { additionalProperties: false },
);

export const PropertySearchIn = Type.Object(
  {
    type: Text(100),
    neighborhood: Text(200),
    city: Text(200),
    state: Text(100),
    code: Text(30),
    minPrice: Num,
    maxPrice: Num,
    minBedrooms: Num,
    maxBedrooms: Num,
    minBathrooms: Num,
    maxBathrooms: Num,
  },
  { additionalProperties: false },
);

export const CampaignIn = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 300 }),
    medium: Text(300),
    term: Text(300),
    content: Text(300),
    campaign: Text(300),
    name: Text(300),
  },
  { additionalProperties: false },
);

const { system: _system, ...personFields } = personInputFields;

export const EventPersonIn = Type.Object(
  { id: Type.Optional(Type.Integer({ minimum: 1 })), ...personFields },
  { additionalProperties: false, patternProperties: { '^custom[A-Za-z0-9_]*$': Type.Any() } },
);

export const EventBody = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 100 }),
    source: Text(300),
    person: Type.Optional(EventPersonIn),
    property: Type.Optional(PropertyIn),
    propertySearch: Type.Optional(PropertySearchIn),
    campaign: Type.Optional(CampaignIn),
    message: Text(20000),
    description: Text(20000),
    occurredAt: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'ISO 8601; older than a day: historical, no automation',
      }),
    ),
    pageTitle: Text(1000),
    pageUrl: Text(2000),
    pageReferrer: Text(2000),
    pageDuration: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
    sourceUrl: Text(2000),
    ...SystemField,
  },
  { additionalProperties: false },
);

const PropertyOut = Type.Record(Type.String(), Type.Any());

export const LeadEvent = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  occurred: Type.String(),
  personId: Type.Integer(),
  type: Type.String(),
  source: Type.String(),
  system: Type.String(),
  message: Type.String(),
  description: Type.String(),
  noteId: Nullable(Type.Integer()),
  property: Nullable(PropertyOut),
  propertySearch: Nullable(PropertyOut),
  campaign: Nullable(PropertyOut),
  pageTitle: Type.String(),
  pageUrl: Type.String(),
  pageReferrer: Type.String(),
  pageDuration: Nullable(Type.Integer()),
  sourceUrl: Type.String(),
});

const listFilters = {
  ...PageQuery,
  type: Type.Optional(
    Type.String({ maxLength: 100, description: 'Event type (aliases accepted)' }),
  ),
  sort: Type.Optional(
    Type.String({ description: 'id, occurred or created; -field for descending (default -id)' }),
  ),
  system: Type.Optional(Type.String()),
};

export const EventsListQuery = Type.Object(
  {
    ...listFilters,
    id: Type.Optional(Type.String({ description: 'Comma-separated event ids' })),
    personId: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const PersonEventsQuery = Type.Object(listFilters, { additionalProperties: false });

export const PersonIdParams = Type.Object({ personId: Type.Integer({ minimum: 1 }) });
