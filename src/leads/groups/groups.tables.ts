import type { Generated } from 'kysely';

export type GroupDistribution = 'round-robin' | 'first-to-claim';
export type GroupType = 'Agent' | 'Lender';

export interface UserGroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  distribution: GroupDistribution;
  /** How many leads the rotation has handed out; the next member is rotation % members. */
  rotation: Generated<number>;
  type: Generated<GroupType>;
  /** first-to-claim: seconds an offer stays open before it moves to the fallback */
  claim_window: Generated<number>;
  default_user_id: number | null;
  default_group_id: number | null;
  default_pond_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface UserGroupMembersTable {
  group_id: number;
  user_id: number;
  position: number;
}

export type OfferStatus = 'open' | 'claimed' | 'expired';

/** One offer round of a person to a first-to-claim group. */
export interface LeadOffersTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  group_id: number | null;
  status: OfferStatus;
  /** how many times this lead already went to a fallback before this offer */
  fallbacks: number;
  offered_at: string;
  expires_at: string;
  claimed_by_id: number | null;
  closed_at: string | null;
}

export interface LeadOfferRecipientsTable {
  offer_id: number;
  account_id: number;
  user_id: number;
  ignored_at: string | null;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    lead_offers: LeadOffersTable;
    lead_offer_recipients: LeadOfferRecipientsTable;
    user_groups: UserGroupsTable;
    user_group_members: UserGroupMembersTable;
  }
}
