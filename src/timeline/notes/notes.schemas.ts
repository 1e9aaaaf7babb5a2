import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { timelineListQuery } from '../timeline.shared.js';

export const Reaction = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  refType: Type.String(),
  refId: Type.Integer(),
  body: Type.String({ description: 'The emoji' }),
  userId: Type.Integer(),
  userName: Type.String(),
});

export const ThreadedReply = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  refType: Type.String(),
  refId: Type.Integer(),
  body: Type.String(),
  userId: Type.Integer(),
  userName: Type.String(),
});

export const Note = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  createdBy: Type.String(),
  createdById: Nullable(Type.Integer()),
  updatedBy: Type.String(),
  updatedById: Nullable(Type.Integer()),
  personId: Type.Integer(),
  subject: Type.String(),
  body: Type.String(),
  isHtml: Type.Boolean(),
  reactions: Type.Optional(Type.Array(Reaction)),
  threadedReplies: Type.Optional(Type.Array(ThreadedReply)),
});

const noteFields = {
  personId: Type.Integer({ minimum: 1 }),
  subject: Type.String({ maxLength: 1000 }),
  body: Type.String({ maxLength: 100_000 }),
  isHtml: Bool(),
};

export const NoteCreateBody = Type.Object(
  {
    personId: noteFields.personId,
    subject: Type.Optional(noteFields.subject),
    body: noteFields.body,
    isHtml: Type.Optional(noteFields.isHtml),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const NoteUpdateBody = Type.Object(
  {
    personId: Type.Optional(noteFields.personId),
    subject: Type.Optional(noteFields.subject),
    body: Type.Optional(noteFields.body),
    isHtml: Type.Optional(noteFields.isHtml),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const NoteListQuery = Type.Object(timelineListQuery, { additionalProperties: false });

export const NoteGetQuery = Type.Object(
  {
    includeReactions: Type.Optional(Bool()),
    includeThreadedReplies: Type.Optional(Bool()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
