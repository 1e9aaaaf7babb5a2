import type { Generated, Kysely, Transaction } from 'kysely';
import type { ExtensionTables } from './extension-tables.js';

/** Booleans are stored as 0/1 integers on both SQLite and PostgreSQL. */
export type Flag = number;

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  role: 'Owner' | 'Admin' | 'Agent' | 'Lender';
  api_key_hash: string;
  created_at: string;
  updated_at: string;
  /** scrypt (src/accounts/auth/passwords.ts); null until the user chooses a password. */
  password_hash: string | null;
  /** Set when the user is deactivated (DELETE /v1/users/:id): no sign-in, no key, no session. */
  deleted_at: string | null;
}

export interface SystemsTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  created_at: string;
}

export interface StagesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  order_weight: number;
  is_protected: Flag;
  created_at: string;
  updated_at: string;
}

export interface PeopleTable {
  id: Generated<number>;
  account_id: number;
  created_at: string;
  updated_at: string;
  last_activity: string | null;
  created_via: string;
  name: string;
  first_name: string;
  last_name: string;
  stage_id: number | null;
  source: string;
  source_url: string;
  price: number | null;
  background: string;
  timeframe_id: number | null;
  assigned_user_id: number | null;
  assigned_lender_id: number | null;
  /** a pond (shared pool) the person is in; then no assigned agent */
  assigned_pond_id: number | null;
  contacted: Flag;
  /** JSON arrays/objects, stored as text. */
  emails: string;
  phones: string;
  addresses: string;
  tags: string;
  collaborators: string;
  custom: string;
}

export interface PersonEmailsTable {
  account_id: number;
  person_id: number;
  email: string;
}

export interface PersonPhonesTable {
  account_id: number;
  person_id: number;
  normalized: string;
}

export interface PersonTagsTable {
  account_id: number;
  person_id: number;
  tag: string;
}

export interface PersonCollaboratorsTable {
  account_id: number;
  person_id: number;
  user_id: number;
}

export interface CustomFieldsTable {
  id: Generated<number>;
  account_id: number;
  /** Which record kind the field belongs to: 'person' or 'deal'. */
  entity: string;
  name: string;
  label: string;
  type: 'text' | 'date' | 'number' | 'dropdown';
  choices: string;
  order_weight: number;
  hide_if_empty: Flag;
  is_recurring: Generated<Flag>;
  created_at: string;
  updated_at: string;
}

export interface OutboxTable {
  id: Generated<number>;
  account_id: number;
  event: string;
  resource_ids: string;
  data: string | null;
  created_at: string;
  /** Set once the dispatcher has fanned the row out into deliveries. */
  dispatched_at: string | null;
}

export interface FoundationTables {
  accounts: AccountsTable;
  users: UsersTable;
  systems: SystemsTable;
  stages: StagesTable;
  people: PeopleTable;
  person_emails: PersonEmailsTable;
  person_phones: PersonPhonesTable;
  person_tags: PersonTagsTable;
  person_collaborators: PersonCollaboratorsTable;
  custom_fields: CustomFieldsTable;
  outbox: OutboxTable;
}

export interface DB extends FoundationTables, ExtensionTables {}

export type Db = Kysely<DB>;
export type Trx = Transaction<DB>;
/** Either a plain handle or a transaction: for functions that may run in either. */
export type DbOrTrx = Kysely<DB> | Transaction<DB>;
