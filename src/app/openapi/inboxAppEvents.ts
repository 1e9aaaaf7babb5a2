import { INBOX_APP_EVENTS, type InboxAppEventName } from '../../accounts/webhooks/event-names.js';
import { signatureParameters } from './webhooks.js';

/**
 * The events an installed inbox app receives at its `subscriptionUrl` (src/inbox/
 * inboxReplies.service.ts builds them), listed in the OpenAPI `webhooks` section next to the
 * webhook events but never registrable through /v1/webhooks (interface part 6 rule 10).
 */

const integer = { type: 'integer' };
const conversation = {
  inboxAppId: { ...integer, description: 'The installation' },
  externalConversationId: { type: 'string', description: "The app's id of the conversation" },
  fubConversationId: { ...integer, description: "Hearth's id of the conversation" },
  conversationId: { ...integer, description: 'The same as fubConversationId' },
};
const ids = ['inboxAppId', 'externalConversationId', 'fubConversationId', 'conversationId'];

const DATA: Record<InboxAppEventName, { summary: string; schema: Record<string, unknown> }> = {
  inboxAppReply: {
    summary:
      'A Hearth user replied in a conversation (messageId: use it in PUT /v1/inboxApps/{id}/message for the delivery status)',
    schema: {
      type: 'object',
      required: [...ids, 'body', 'messageId', 'userData', 'attachments'],
      properties: {
        ...conversation,
        body: { type: 'string', description: 'The reply, plain text' },
        messageId: { ...integer, description: "Hearth's id of the reply" },
        userData: { type: 'object', required: ['id'], properties: { id: integer } },
        attachments: {
          type: 'array',
          description: 'Files the user attached, hosted where the url says',
          items: {
            type: 'object',
            required: ['filename', 'url', 'mimeType'],
            properties: {
              filename: { type: 'string' },
              url: { type: 'string', format: 'uri' },
              mimeType: { type: 'string' },
            },
          },
        },
      },
    },
  },
  inboxAppConversationRead: {
    summary: 'A Hearth user read a conversation',
    schema: {
      type: 'object',
      required: [...ids, 'userId', 'lastExternalMessageId', 'lastFubMessageId'],
      properties: {
        ...conversation,
        userId: integer,
        lastExternalMessageId: {
          type: ['string', 'null'],
          description: "The app's id of the newest message read (null: a Hearth user's reply)",
        },
        lastFubMessageId: { type: ['integer', 'null'], description: "Hearth's id of it" },
      },
    },
  },
  inboxAppConversationArchived: {
    summary: 'A Hearth user archived (or unarchived) a conversation',
    schema: {
      type: 'object',
      required: [...ids, 'userId', 'archived'],
      properties: { ...conversation, userId: integer, archived: { type: 'boolean' } },
    },
  },
};

export function inboxAppEventsSection(signatureHeader: string): Record<string, unknown> {
  return Object.fromEntries(
    INBOX_APP_EVENTS.map((name) => [
      name,
      {
        post: {
          operationId: `inboxApp${name.slice('inboxApp'.length)}Event`,
          summary: `${name}: sent to an inbox app's subscriptionUrl`,
          description:
            `${DATA[name].summary}. Signed with the key of the system that installed the app, ` +
            'like webhook deliveries, and retried the same way; not part of /v1/webhooks. ' +
            'Answering 406 or 410 deactivates the inbox app.',
          tags: ['inboxApps'],
          security: [],
          parameters: signatureParameters(signatureHeader),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['eventId', 'eventCreated', 'event', 'data'],
                  properties: {
                    eventId: { type: 'string', format: 'uuid' },
                    eventCreated: { type: 'string', format: 'date-time' },
                    event: { const: name },
                    data: DATA[name].schema,
                  },
                },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx within 10 seconds acknowledges the delivery' },
            '406': { description: 'Deactivates the inbox app' },
            '410': { description: 'Deactivates the inbox app' },
          },
        },
      },
    ]),
  );
}
