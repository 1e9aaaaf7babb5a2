import { containsText } from '../db/text-match.js';
import type { Static } from '@sinclair/typebox';
import type { DbOrTrx } from '../db/database.js';
import type { AuthUser } from '../http/auth.js';
import { badRequest } from '../http/errors.js';
import { readSort, type SortKey } from '../http/pagination.js';
import { MAX_ID, toBool } from '../http/schemas.js';
import { canSeePerson } from './people.access.js';
import { normalizePhone, withDisplayNames } from './people.repo.js';
import type { PeopleListQuery } from './people.schemas.js';
import { cleanSource, stageIdNamed } from './people.service.js';
import { isoSeconds } from '../time.js';
import type { DialectName } from '../db/dialect.js';
import { personDocument } from './people.document.js';

type ListQuery = Static<typeof PeopleListQuery>;

const SORTABLE: Record<string, string> = {
  created: 'people.created_at',
  updated: 'people.updated_at',
  lastActivity: "coalesce(people.last_activity, '')",
  name: 'people.name',
  firstName: 'people.first_name',
  lastName: 'people.last_name',
  price: 'coalesce(people.price, -1)',
};

export function peopleSort(sort: string | undefined): SortKey {
  return readSort(sort, SORTABLE, 'people.id');
}


function timestamp(raw: string, field: string): string {
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badRequest(`'${field}' must be a date or ISO 8601 timestamp`);
  return isoSeconds(ms);
}


/**
 * The filtered, visibility-checked people behind GET /v1/people. Filters touch only `people` and
 * indexed lookups, so counting the matches never pays for the joins that add display names.
 */
export async function buildPeopleListQuery(db: DbOrTrx, dialect: DialectName, auth: AuthUser, q: ListQuery) {
  const accountId = auth.accountId;
  let query = db.selectFrom('people').where('people.account_id', '=', accountId).where((eb) => canSeePerson(eb, auth));
  if (q.email) {
    const email = q.email.trim().toLowerCase();
    query = query.where('people.id', 'in', db.selectFrom('person_emails').select('person_id').where('account_id', '=', auth.accountId).where('email', '=', email));
  }
  if (q.phone) {
    const phone = normalizePhone(q.phone);
    query = query.where('people.id', 'in', db.selectFrom('person_phones').select('person_id').where('account_id', '=', auth.accountId).where('normalized', '=', phone));
  }
  if (q.tags) {
    const wanted = q.tags.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
    if (wanted.length) {
      query = query.where('people.id', 'in', db.selectFrom('person_tags').select('person_id').where('account_id', '=', auth.accountId).where('tag', 'in', wanted));
    }
  }
  if (q.stage) query = query.where('people.stage_id', 'in', db.selectFrom('stages').select('id').where('account_id', '=', accountId).where('name', '=', q.stage));
  if (q.stageId !== undefined) query = query.where('people.stage_id', '=', q.stageId);
  if (q.source) query = query.where('people.source', '=', cleanSource(q.source));
  for (const [param, column] of [['name', 'people.name'], ['firstName', 'people.first_name'], ['lastName', 'people.last_name']] as const) {
    const value = q[param];
    if (value) query = query.where(containsText(column, value));
  }
  if (q.assignedTo) query = query.where('people.assigned_user_id', 'in', db.selectFrom('users').select('id').where('account_id', '=', accountId).where('name', '=', q.assignedTo));
  if (q.assignedUserId !== undefined) query = query.where('people.assigned_user_id', '=', q.assignedUserId);
  if (q.assignedLenderId !== undefined) query = query.where('people.assigned_lender_id', '=', q.assignedLenderId);
  const ranges = [
    ['createdAfter', 'people.created_at', '>='], ['createdBefore', 'people.created_at', '<='],
    ['updatedAfter', 'people.updated_at', '>='], ['updatedBefore', 'people.updated_at', '<='],
    ['lastActivityAfter', 'people.last_activity', '>='], ['lastActivityBefore', 'people.last_activity', '<='],
  ] as const;
  for (const [param, column, op] of ranges) {
    const value = q[param];
    if (value) query = query.where(column, op, timestamp(value, param));
  }
  if (q.priceAbove !== undefined) query = query.where('people.price', '>=', q.priceAbove);
  if (q.priceBelow !== undefined) query = query.where('people.price', '<=', q.priceBelow);
  // Trash is hidden unless asked for: by includeTrash, by a stage filter, or by naming the ids
  // (a webhook's uri is `/v1/people?id=…`, and a person moved to Trash must still be fetchable there).
  const includeTrash = toBool(q.includeTrash) ?? Boolean(q.stage || q.stageId !== undefined || q.id);
  if (!includeTrash) {
    const trashId = await stageIdNamed(db, accountId, 'Trash');
    if (trashId !== null) query = query.where((eb) => eb.or([eb('people.stage_id', 'is', null), eb('people.stage_id', '!=', trashId)]));
  }
  return {
    filtered: query,
    rows: withDisplayNames(query),
    /** the standard fields already as JSON (people.document.ts): for pages without `fields` */
    documents: query.select((eb) => [eb.ref('people.id').as('id'), personDocument(dialect).as('document')]),
  };
}
