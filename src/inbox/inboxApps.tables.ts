import type { Generated } from 'kysely';
import type { Flag } from '../platform/db/database.js';

export type InboxAppStatus = 'Active' | 'Deactivated';
export type InboxMessageKind = 'message' | 'note';

export interface InboxAppsTable {
  id: Generated<number>;
  account_id: number;
  published_inbox_app_id: number;
  /** null: installed for the whole account (API `userId: 0`) */
  user_id: number | null;
  installed_by_id: number;
  /** the registered system that installed it: its key signs the deliveries */
  system: string;
  subscription_url: string;
  status: InboxAppStatus;
  created_at: string;
  updated_at: string;
}

export interface InboxConversationsTable {
  id: Generated<number>;
  account_id: number;
  inbox_app_id: number;
  external_id: string;
  person_id: number;
  owner_user_id: number | null;
  owner_team_id: number | null;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  subject: string;
  archived: Generated<Flag>;
  permanently_archived: Generated<Flag>;
  created_at: string;
  updated_at: string;
}

export interface InboxMessagesTable {
  id: Generated<number>;
  account_id: number;
  conversation_id: number;
  inbox_app_id: number;
  person_id: number;
  kind: InboxMessageKind;
  /** the app's id of the message; null for a Hearth user's reply */
  external_id: string | null;
  reply_to_external_id: string | null;
  message: string;
  is_incoming: Flag;
  /** JSON: who sent it ({name, userId?, personId?, isAutomation}) */
  sender: string;
  /** the Hearth user who replied or added the note */
  user_id: number | null;
  sent_at: string;
  delivery_status: string | null;
  delivery_error: string | null;
  /** JSON: [{filename, url, mimeType}], files hosted by the app (https, never fetched) */
  attachments: Generated<string>;
  /** JSON: [url] of the app's rich objects */
  rich_objects: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface InboxParticipantsTable {
  id: Generated<number>;
  account_id: number;
  conversation_id: number;
  person_id: number | null;
  user_id: number | null;
  relationship_id: number | null;
  name: string;
  email: string;
  phone: string;
  is_automation: Flag;
  created_at: string;
}

declare module '../platform/db/extension-tables.js' {
  interface ExtensionTables {
    inbox_apps: InboxAppsTable;
    inbox_conversations: InboxConversationsTable;
    inbox_messages: InboxMessagesTable;
    inbox_participants: InboxParticipantsTable;
  }
}
