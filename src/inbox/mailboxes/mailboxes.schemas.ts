import { Type } from '@sinclair/typebox';
import { Bool, MAX_ID, Nullable } from '../../platform/http/schemas.js';

const Host = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9.:\\[\\]-]+$',
  description: 'host name or IP address of the mail server',
});
const Server = (defaults: string) =>
  Type.Object(
    {
      host: Host,
      port: Type.Integer({ minimum: 1, maximum: 65535, description: defaults }),
      secure: Type.Optional(
        Bool({ description: 'true: TLS from the start (default on 993, 465); false: STARTTLS' }),
      ),
      username: Type.String({ minLength: 1, maxLength: 320 }),
      password: Type.String({ minLength: 1, maxLength: 1000, description: 'an app password' }),
    },
    { additionalProperties: false },
  );

export const MailboxCreateBody = Type.Object(
  {
    address: Type.String({ minLength: 3, maxLength: 320, description: 'the mailbox address' }),
    imap: Server('993 with TLS, 143 with STARTTLS'),
    smtp: Server('465 with TLS, 587 with STARTTLS'),
  },
  { additionalProperties: false },
);

export const Mailbox = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  address: Type.String(),
  status: Type.Union(
    ['connecting', 'syncing', 'ok', 'error'].map((s) => Type.Literal(s)),
    { description: 'connecting, syncing (first read of its history), ok, error' },
  ),
  error: Nullable(Type.String()),
  lastSyncAt: Nullable(Type.String()),
  authKind: Type.String({ description: 'password, google or microsoft' }),
  imap: Type.Object({ host: Type.String(), port: Type.Integer(), secure: Type.Boolean() }),
  smtp: Type.Object({ host: Type.String(), port: Type.Integer(), secure: Type.Boolean() }),
  created: Type.String(),
});

export const MailboxListQuery = Type.Object(
  {
    userId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Owner: one user' }),
    ),
  },
  { additionalProperties: false },
);

export const MailboxSendBody = Type.Object(
  {
    personId: Type.Integer({ minimum: 1, maximum: MAX_ID }),
    subject: Type.Optional(Type.String({ maxLength: 1000 })),
    body: Type.Optional(Type.String({ maxLength: 500_000 })),
    isHtml: Type.Optional(Bool()),
    templateId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID })),
    to: Type.Optional(
      Type.String({
        maxLength: 320,
        description: "one of the person's addresses (default: the first)",
      }),
    ),
    cc: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 20 })),
    inReplyToEmailId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'an email this one answers' }),
    ),
  },
  { additionalProperties: false },
);
