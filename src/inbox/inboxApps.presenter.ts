import { storedAttachments, storedRichObjects } from './inboxAttachments.js';
import type { ConversationRow, InboxAppRow, MessageRow, ParticipantRow } from './inboxApps.repo.js';

export function presentApp(row: InboxAppRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    publishedInboxAppId: row.published_inbox_app_id,
    userId: row.user_id ?? 0,
    installedById: row.installed_by_id,
    subscriptionUrl: row.subscription_url,
    status: row.status,
  };
}

export function presentConversation(row: ConversationRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    inboxAppId: row.inbox_app_id,
    externalConversationId: row.external_id,
    personId: row.person_id,
    ownerUserId: row.owner_user_id,
    ownerTeamInboxId: row.owner_team_id,
    assignedUserId: row.assigned_user_id,
    assignedInboxId: row.assigned_team_id,
    subject: row.subject,
    archived: row.archived === 1,
    permanentlyArchived: row.permanently_archived === 1,
  };
}

function parseSender(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function presentMessage(row: MessageRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    type: row.kind,
    inboxAppId: row.inbox_app_id,
    conversationId: row.conversation_id,
    externalConversationId: row.external_conversation_id,
    conversationSubject: row.conversation_subject,
    externalMessageId: row.external_id,
    replyToExternalMessageId: row.reply_to_external_id,
    personId: row.person_id,
    message: row.message,
    isIncoming: row.is_incoming === 1,
    sender: parseSender(row.sender),
    userId: row.user_id,
    sentAt: row.sent_at,
    deliveryStatus: row.delivery_status,
    deliveryStatusErrorMessage: row.delivery_error,
    attachments: storedAttachments(row.attachments),
    richObjects: storedRichObjects(row.rich_objects),
  };
}

export function presentParticipant(row: ParticipantRow) {
  return {
    id: row.id,
    created: row.created_at,
    personId: row.person_id,
    userId: row.user_id,
    relationshipId: row.relationship_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    isAutomation: row.is_automation === 1,
  };
}
