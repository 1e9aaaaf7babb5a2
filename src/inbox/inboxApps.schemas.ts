import { Type } from '@sinclair/typebox';
import { Bool, MAX_ID, SystemField } from '../platform/http/schemas.js';
import { PageQuery } from '../platform/http/pagination.js';
import { ATTACHMENT_MIME_TYPES } from './inboxAttachments.js';

const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });
const ExternalId = (description: string) =>
  Type.String({ minLength: 1, maxLength: 255, description });
const Strict = { additionalProperties: false } as const;

export const DELIVERY_STATUSES = ['Sent', 'Delivered', 'Read', 'Not Delivered'] as const;
const DeliveryStatus = Type.Union(
  DELIVERY_STATUSES.map((s) => Type.Literal(s)),
  { description: 'Sent, Delivered, Read or Not Delivered' },
);

const MAX_ATTACHMENTS = 10;
const AttachmentIn = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255, description: 'Shown to the user' }),
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Absolute https URL where the file is hosted; Hearth never fetches it',
    }),
    mimeType: Type.Optional(
      Type.Union(
        ATTACHMENT_MIME_TYPES.map((m) => Type.Literal(m)),
        { description: 'Default: told by the file name' },
      ),
    ),
  },
  Strict,
);
const Attachments = Type.Array(AttachmentIn, {
  maxItems: MAX_ATTACHMENTS,
  description: `Up to ${MAX_ATTACHMENTS} files hosted elsewhere (png, jpg, gif or pdf)`,
});
const RichObjects = Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
  maxItems: MAX_ATTACHMENTS,
  description: `Up to ${MAX_ATTACHMENTS} rich object URLs (https)`,
});
export const InstallBody = Type.Object(
  {
    publishedInboxAppId: Id('Your published inbox app id'),
    userId: Type.Integer({
      minimum: 0,
      maximum: MAX_ID,
      description:
        "0 = the whole account (Owner key); else the user whose inbox it serves (an Owner's key, or that user's own)",
    }),
    subscriptionUrl: Type.String({
      maxLength: 2048,
      description:
        'HTTPS address that receives inboxAppReply, inboxAppConversationRead and inboxAppConversationArchived, signed like webhooks',
    }),
    ...SystemField,
  },
  Strict,
);

const ContactList = Type.Union([
  Type.String({ maxLength: 320 }),
  Type.Array(
    Type.Union([
      Type.String({ maxLength: 320 }),
      Type.Object({ value: Type.String({ maxLength: 320 }) }, { additionalProperties: true }),
    ]),
    { maxItems: 20 },
  ),
]);

export const PersonRef = Type.Object(
  {
    id: Type.Optional(Id('A person of the account (preferred)')),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    firstName: Type.Optional(Type.String({ maxLength: 100 })),
    lastName: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    emails: Type.Optional(ContactList),
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    phones: Type.Optional(ContactList),
  },
  {
    ...Strict,
    description: 'The person: `id`, or name/email/phone (matched to a person, else one is created)',
  },
);

export const OwnerRef = Type.Object(
  {
    id: Type.Optional(Id()),
    type: Type.Optional(
      Type.Union([
        Type.Literal('user'),
        Type.Literal('User'),
        Type.Literal('teamInbox'),
        Type.Literal('TeamInbox'),
      ]),
    ),
    userId: Type.Optional(Id()),
    teamInboxId: Type.Optional(Id('A team inbox (GET /v1/teamInboxes)')),
  },
  {
    ...Strict,
    description: 'The owning inbox: {type: user|teamInbox, id}, {userId} or {teamInboxId}',
  },
);

export const Sender = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    userId: Type.Optional(Id()),
    personId: Type.Optional(Id()),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    isAutomation: Type.Optional(Bool()),
  },
  { ...Strict, description: 'Who sent it: a user, a person, or anyone else (an AI bot)' },
);

export const MessageBody = Type.Object(
  {
    externalConversationId: ExternalId('Your id of the conversation'),
    externalMessageId: ExternalId('Your id of the message (unique per inbox app)'),
    replyToExternalMessageId: Type.Optional(Type.String({ maxLength: 255 })),
    message: Type.String({ minLength: 1, maxLength: 20_000 }),
    isIncoming: Bool(),
    sender: Sender,
    sentAt: Type.Optional(Type.String({ format: 'date-time' })),
    subject: Type.Optional(Type.String({ maxLength: 500 })),
    deliveryStatus: Type.Optional(DeliveryStatus),
    deliveryStatusErrorMessage: Type.Optional(Type.String({ maxLength: 1000 })),
    person: Type.Optional(PersonRef),
    owner: Type.Optional(OwnerRef),
    attachments: Type.Optional(Attachments),
    richObjects: Type.Optional(RichObjects),
    ...SystemField,
  },
  Strict,
);

export const MessageUpdateBody = Type.Object(
  {
    externalMessageId: Type.Optional(ExternalId('The message to update')),
    messageId: Type.Optional(Id("Hearth's id of a reply (the inboxAppReply event's messageId)")),
    deliveryStatus: DeliveryStatus,
    deliveryStatusErrorMessage: Type.Optional(Type.String({ maxLength: 1000 })),
    ...SystemField,
  },
  Strict,
);

export const NoteBody = Type.Object(
  {
    externalConversationId: ExternalId('The conversation'),
    body: Type.String({ minLength: 1, maxLength: 20_000 }),
    user: Type.Object({ id: Id() }, { ...Strict, description: 'The user adding the note' }),
    ...SystemField,
  },
  Strict,
);

export const ConversationUpdateBody = Type.Object(
  {
    subject: Type.Optional(Type.String({ maxLength: 500 })),
    archived: Type.Optional(Bool()),
    permanentlyArchived: Type.Optional(
      Bool({ description: 'No more replies or notes; cannot be undone' }),
    ),
    assignedUserId: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_ID, description: '0 reverts to the owner' }),
    ),
    assignedInboxId: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_ID,
        description: 'A team inbox; 0 reverts to the owner',
      }),
    ),
    person: Type.Optional(PersonRef),
    ...SystemField,
  },
  Strict,
);

export const ParticipantBody = Type.Object(
  {
    personId: Type.Optional(Id()),
    userId: Type.Optional(Id()),
    relationshipId: Type.Optional(Id()),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    isAutomation: Type.Optional(Bool()),
    ...SystemField,
  },
  Strict,
);

export const AppParams = Type.Object({ id: Id() });
export const PublishedAppParams = Type.Object({
  publishedInboxAppId: Id('Your published inbox app id'),
});
export const ConversationParams = Type.Object({
  id: Id(),
  externalId: Type.String({ minLength: 1, maxLength: 255 }),
});
export const ParticipantParams = Type.Object({
  id: Id(),
  externalId: Type.String({ minLength: 1, maxLength: 255 }),
  participantId: Id(),
});

export const ListQuery = Type.Object(
  { ...PageQuery, system: Type.Optional(Type.String()) },
  Strict,
);
export const TimelineQuery = Type.Object(
  {
    ...PageQuery,
    personId: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
    conversationId: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
    inboxAppId: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
    system: Type.Optional(Type.String()),
  },
  Strict,
);
export const ReplyBody = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 20_000 }),
    attachments: Type.Optional(Attachments),
    ...SystemField,
  },
  Strict,
);
export const ArchiveBody = Type.Object(
  { archived: Type.Optional(Bool({ description: 'default true' })), ...SystemField },
  Strict,
);
