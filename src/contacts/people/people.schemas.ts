import { Type } from '@sinclair/typebox';
import { Bool, MAX_ID, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

const EmailIn = Type.Union([
  Type.String(),
  Type.Object(
    {
      value: Type.String({ minLength: 1, maxLength: 320 }),
      type: Type.Optional(Type.String({ maxLength: 50 })),
      status: Type.Optional(Type.String({ maxLength: 50 })),
      isPrimary: Type.Optional(Bool()),
    },
    { additionalProperties: false },
  ),
]);

const PhoneIn = EmailIn;

export const AddressIn = Type.Object(
  {
    street: Type.Optional(Type.String({ maxLength: 500 })),
    city: Type.Optional(Type.String({ maxLength: 200 })),
    state: Type.Optional(Type.String({ maxLength: 100 })),
    code: Type.Optional(Type.String({ maxLength: 30 })),
    country: Type.Optional(Type.String({ maxLength: 100 })),
    type: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);

const IdRef = (minimum: number) => Type.Integer({ minimum, maximum: MAX_ID });

const CollaboratorIn = Type.Union([
  IdRef(1),
  Type.Object({ id: IdRef(1) }, { additionalProperties: false }),
]);

/** Person fields a client may send; custom fields (`custom…`) ride along as extra keys. */
export const personInputFields = {
  name: Type.Optional(Type.String({ maxLength: 300 })),
  firstName: Type.Optional(Type.String({ maxLength: 150 })),
  lastName: Type.Optional(Type.String({ maxLength: 150 })),
  stage: Type.Optional(Type.String({ maxLength: 100 })),
  stageId: Type.Optional(IdRef(1)),
  source: Type.Optional(Type.String({ maxLength: 300 })),
  sourceUrl: Type.Optional(Type.String({ maxLength: 2000 })),
  price: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  background: Type.Optional(Type.String({ maxLength: 20000 })),
  timeframeId: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'One of GET /v1/timeframes' }),
    ),
  ),
  contacted: Type.Optional(Bool()),
  assignedTo: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  assignedUserId: Type.Optional(Nullable(IdRef(0))),
  assignedLenderName: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  assignedLenderId: Type.Optional(Nullable(IdRef(0))),
  assignedPondId: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description: 'The pond (GET /v1/ponds) to move the person into; unassigns the agent',
      }),
    ),
  ),
  emails: Type.Optional(Type.Array(EmailIn, { maxItems: 50 })),
  phones: Type.Optional(Type.Array(PhoneIn, { maxItems: 50 })),
  addresses: Type.Optional(Type.Array(AddressIn, { maxItems: 20 })),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200 })),
  collaborators: Type.Optional(Type.Array(CollaboratorIn, { maxItems: 50 })),
  ...SystemField,
};

export const PersonBody = Type.Object(personInputFields, {
  additionalProperties: false,
  patternProperties: { '^custom[A-Za-z0-9_]*$': Type.Any() },
});

/** POST /v1/people also takes `createdAt`: a historical lead keeps when it first came in. */
export const PersonCreateBody = Type.Object(
  {
    ...personInputFields,
    createdAt: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'When the person first came in (ISO 8601, not in the future); default now',
      }),
    ),
  },
  { additionalProperties: false, patternProperties: { '^custom[A-Za-z0-9_]*$': Type.Any() } },
);

const ContactOut = Type.Object({
  value: Type.String(),
  type: Type.String(),
  status: Type.String(),
  isPrimary: Type.Boolean(),
});

const PhoneOut = Type.Object({
  value: Type.String(),
  type: Type.String(),
  status: Type.String(),
  isPrimary: Type.Boolean(),
  normalized: Type.String(),
});

const AddressOut = Type.Object({
  street: Type.String(),
  city: Type.String(),
  state: Type.String(),
  code: Type.String(),
  country: Type.String(),
  type: Type.String(),
});

/** The person as the API returns it; with `fields`, only the named fields (and id) are present. */
export const Person = Type.Object(
  {
    id: Type.Integer(),
    created: Type.Optional(Type.String()),
    updated: Type.Optional(Type.String()),
    createdVia: Type.Optional(Type.String()),
    lastActivity: Type.Optional(Nullable(Type.String())),
    name: Type.Optional(Type.String()),
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    stage: Type.Optional(Nullable(Type.String())),
    stageId: Type.Optional(Nullable(Type.Integer())),
    source: Type.Optional(Type.String()),
    sourceUrl: Type.Optional(Type.String()),
    contacted: Type.Optional(Type.Integer()),
    price: Type.Optional(Nullable(Type.Number())),
    assignedTo: Type.Optional(Nullable(Type.String())),
    assignedUserId: Type.Optional(Nullable(Type.Integer())),
    assignedLenderId: Type.Optional(Nullable(Type.Integer())),
    assignedLenderName: Type.Optional(Nullable(Type.String())),
    assignedPondId: Type.Optional(Nullable(Type.Integer())),
    background: Type.Optional(Type.String()),
    timeframeId: Type.Optional(Nullable(Type.Integer())),
    tags: Type.Optional(Type.Array(Type.String())),
    emails: Type.Optional(Type.Array(ContactOut)),
    phones: Type.Optional(Type.Array(PhoneOut)),
    addresses: Type.Optional(Type.Array(AddressOut)),
    collaborators: Type.Optional(
      Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
    ),
  },
  { additionalProperties: true, $id: 'Person' },
);

const commaList = (description: string) => Type.Optional(Type.String({ description }));

export const PeopleListQuery = Type.Object(
  {
    ...PageQuery,
    id: commaList('Comma-separated person ids'),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'Search text: people whose name, first name, last name or an email contains it ' +
          '(case-insensitive, prefix or substring), or, when written like a phone number ' +
          '(digits, spaces, + - . ( ) /), one of whose phones contains its digits',
      }),
    ),
    email: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    stage: Type.Optional(Type.String()),
    stageId: Type.Optional(IdRef(0)),
    source: Type.Optional(Type.String()),
    name: Type.Optional(Type.String({ description: 'Substring of the name' })),
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    tags: commaList('Comma-separated tags: people with any of them'),
    assignedTo: Type.Optional(Type.String()),
    assignedUserId: Type.Optional(IdRef(0)),
    assignedLenderId: Type.Optional(IdRef(0)),
    assignedPondId: Type.Optional(IdRef(1)),
    timeframeId: Type.Optional(IdRef(1)),
    createdAfter: Type.Optional(Type.String()),
    createdBefore: Type.Optional(Type.String()),
    updatedAfter: Type.Optional(Type.String()),
    updatedBefore: Type.Optional(Type.String()),
    lastActivityAfter: Type.Optional(Type.String()),
    lastActivityBefore: Type.Optional(Type.String()),
    priceAbove: Type.Optional(Type.Number()),
    priceBelow: Type.Optional(Type.Number()),
    includeTrash: Type.Optional(Bool()),
    sort: Type.Optional(Type.String({ description: 'Field name, or -field for descending' })),
    fields: Type.Optional(
      Type.String({
        description: 'Comma-separated field names, or allFields (adds custom fields)',
      }),
    ),
    smartListId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description:
          "Apply this smart list's saved filters; filters given here too are added (the same filter given here replaces the saved one)",
      }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const PersonGetQuery = Type.Object(
  { fields: Type.Optional(Type.String()), system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const PersonCreateQuery = Type.Object(
  { deduplicate: Type.Optional(Bool()), system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const PersonUpdateQuery = Type.Object(
  { mergeTags: Type.Optional(Bool()), system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const CheckDuplicateQuery = Type.Object(
  {
    email: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const CheckDuplicateResult = Type.Object({
  found: Type.Boolean(),
  matchedBy: Nullable(Type.String()),
  assignedTo: Nullable(Type.String()),
  personId: Nullable(Type.Integer()),
});
