/**
 * Every webhook event name of the interface, with the API path its `uri` points to.
 * `null` path: the event has no address to fetch (the records are gone).
 */
export const EVENT_RESOURCES = {
  peopleCreated: '/v1/people',
  peopleUpdated: '/v1/people',
  peopleDeleted: null,
  peopleTagsCreated: '/v1/people',
  peopleStageUpdated: '/v1/people',
  peopleRelationshipCreated: '/v1/peopleRelationships',
  peopleRelationshipUpdated: '/v1/peopleRelationships',
  peopleRelationshipDeleted: '/v1/peopleRelationships',
  notesCreated: '/v1/notes',
  notesUpdated: '/v1/notes',
  notesDeleted: '/v1/notes',
  reactionCreated: '/v1/reactions',
  reactionDeleted: '/v1/reactions',
  threadedReplyCreated: '/v1/threadedReplies',
  threadedReplyUpdated: '/v1/threadedReplies',
  threadedReplyDeleted: '/v1/threadedReplies',
  emailsCreated: '/v1/emails',
  emailsUpdated: '/v1/emails',
  emailsDeleted: '/v1/emails',
  tasksCreated: '/v1/tasks',
  tasksUpdated: '/v1/tasks',
  tasksDeleted: '/v1/tasks',
  appointmentsCreated: '/v1/appointments',
  appointmentsUpdated: '/v1/appointments',
  appointmentsDeleted: '/v1/appointments',
  textMessagesCreated: '/v1/textMessages',
  textMessagesUpdated: '/v1/textMessages',
  textMessagesDeleted: '/v1/textMessages',
  callsCreated: '/v1/calls',
  callsUpdated: '/v1/calls',
  callsDeleted: '/v1/calls',
  emEventsOpened: '/v1/emEvents',
  emEventsClicked: '/v1/emEvents',
  emEventsUnsubscribed: '/v1/emEvents',
  dealsCreated: '/v1/deals',
  dealsUpdated: '/v1/deals',
  dealsDeleted: '/v1/deals',
  stageCreated: '/v1/stages',
  stageUpdated: '/v1/stages',
  stageDeleted: '/v1/stages',
  eventsCreated: '/v1/events',
  pipelineCreated: '/v1/pipelines',
  pipelineUpdated: '/v1/pipelines',
  pipelineDeleted: '/v1/pipelines',
  pipelineStageCreated: '/v1/pipelines',
  pipelineStageUpdated: '/v1/pipelines',
  pipelineStageDeleted: '/v1/pipelines',
  customFieldsCreated: '/v1/customFields',
  customFieldsUpdated: '/v1/customFields',
  customFieldsDeleted: '/v1/customFields',
  dealCustomFieldsCreated: '/v1/dealCustomFields',
  dealCustomFieldsUpdated: '/v1/dealCustomFields',
  dealCustomFieldsDeleted: '/v1/dealCustomFields',
} as const satisfies Record<string, string | null>;

export type EventName = keyof typeof EVENT_RESOURCES;

export const EVENT_NAMES = Object.keys(EVENT_RESOURCES) as EventName[];

export function isEventName(value: string): value is EventName {
  return Object.hasOwn(EVENT_RESOURCES, value);
}

/**
 * Events sent to an inbox app's subscription URL (interface part 6 rule 10: not webhook events,
 * not registrable or visible through /v1/webhooks or /v1/webhookEvents).
 */
export const INBOX_APP_EVENTS = [
  'inboxAppReply',
  'inboxAppConversationRead',
  'inboxAppConversationArchived',
] as const;
export type InboxAppEventName = (typeof INBOX_APP_EVENTS)[number];
