import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export interface NotesTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  subject: string;
  body: string;
  is_html: Flag;
  created_by_id: number | null;
  created_by: string;
  updated_by_id: number | null;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

export interface ReactionsTable {
  id: Generated<number>;
  account_id: number;
  ref_type: string;
  ref_id: number;
  /** Set when ref_type is Note: the foreign key that removes the reaction with its note. */
  note_id: number | null;
  emoji: string;
  user_id: number;
  user_name: string;
  created_at: string;
}

export interface ThreadedRepliesTable {
  id: Generated<number>;
  account_id: number;
  ref_type: string;
  ref_id: number;
  note_id: number | null;
  body: string;
  user_id: number;
  user_name: string;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    notes: NotesTable;
    reactions: ReactionsTable;
    threaded_replies: ThreadedRepliesTable;
  }
}
