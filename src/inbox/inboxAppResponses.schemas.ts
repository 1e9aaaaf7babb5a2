import { Type } from '@sinclair/typebox';
import { Nullable } from '../platform/http/schemas.js';

/** What the inbox app API answers: installs, messages, conversations and their participants. */

const AttachmentOut = Type.Object({
  filename: Type.String(),
  url: Type.String(),
  mimeType: Type.String(),
});

export const InboxApp = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  publishedInboxAppId: Type.Integer(),
  userId: Type.Integer({ description: '0: installed for the whole account' }),
  installedById: Type.Integer(),
  subscriptionUrl: Type.String(),
  status: Type.String({ description: 'Active or Deactivated' }),
});

export const InboxMessage = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  type: Type.String({ description: 'message or note' }),
  inboxAppId: Type.Integer(),
  conversationId: Type.Integer(),
  externalConversationId: Type.String(),
  conversationSubject: Type.String({ description: "The conversation's subject" }),
  externalMessageId: Nullable(Type.String()),
  replyToExternalMessageId: Nullable(Type.String()),
  personId: Type.Integer(),
  message: Type.String(),
  isIncoming: Type.Boolean(),
  sender: Type.Record(Type.String(), Type.Unknown()),
  userId: Nullable(Type.Integer()),
  sentAt: Type.String(),
  deliveryStatus: Nullable(Type.String()),
  deliveryStatusErrorMessage: Nullable(Type.String()),
  attachments: Type.Array(AttachmentOut),
  richObjects: Type.Array(Type.String()),
});

export const Conversation = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  inboxAppId: Type.Integer(),
  externalConversationId: Type.String(),
  personId: Type.Integer(),
  ownerUserId: Nullable(Type.Integer()),
  ownerTeamInboxId: Nullable(Type.Integer()),
  assignedUserId: Nullable(Type.Integer()),
  assignedInboxId: Nullable(Type.Integer()),
  subject: Type.String(),
  archived: Type.Boolean(),
  permanentlyArchived: Type.Boolean(),
});

export const Participant = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  personId: Nullable(Type.Integer()),
  userId: Nullable(Type.Integer()),
  relationshipId: Nullable(Type.Integer()),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  isAutomation: Type.Boolean(),
});
