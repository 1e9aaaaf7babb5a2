import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import type { AttachmentRow } from './attachments.shared.js';
import './attachments.tables.js';

/** Where one kind of attachment is stored and which parents the caller sees. */
export interface AttachmentStore {
  table: 'deal_attachments' | 'person_attachments';
  parentColumn: 'deal_id' | 'person_id';
  /** ids of the parents the caller sees (a subquery) */
  visibleParents(db: DbOrTrx, auth: AuthUser): unknown;
}

export interface AttachmentValues {
  uri: string;
  fileName: string;
  fileSize: number | null;
}

// Both tables share every column but the parent's: queries are written once against one of them.
const tableOf = (store: AttachmentStore) => store.table as 'deal_attachments';
const parentOf = (store: AttachmentStore) => store.parentColumn as 'deal_id';

/** The attachments whose parent the caller sees, with the creator's name. */
export function attachmentsQuery(db: DbOrTrx, auth: AuthUser, store: AttachmentStore) {
  const table = tableOf(store);
  const parent = parentOf(store);
  return (
    db
      .selectFrom(table)
      .leftJoin('users as creator', 'creator.id', `${table}.created_by_id`)
      .selectAll(table)
      .select([`${table}.${parent} as parent_id`, 'creator.name as created_by_name'])
      .where(`${table}.account_id`, '=', auth.accountId)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .where(`${table}.${parent}`, 'in', store.visibleParents(db, auth) as any)
  );
}

/** Narrows an attachments query to one parent. */
export function ofParent(
  query: ReturnType<typeof attachmentsQuery>,
  store: AttachmentStore,
  parentId: number,
) {
  return query.where(`${tableOf(store)}.${parentOf(store)}`, '=', parentId);
}

export async function findVisibleAttachment(
  db: DbOrTrx,
  auth: AuthUser,
  store: AttachmentStore,
  id: number,
): Promise<AttachmentRow | undefined> {
  const row = await attachmentsQuery(db, auth, store)
    .where(`${tableOf(store)}.id`, '=', id)
    .executeTakeFirst();
  return row as unknown as AttachmentRow | undefined;
}

export async function insertAttachment(
  db: DbOrTrx,
  auth: AuthUser,
  store: AttachmentStore,
  parentId: number,
  values: AttachmentValues,
  at: string,
): Promise<number> {
  const { id } = await db
    .insertInto(tableOf(store))
    .values({
      account_id: auth.accountId,
      [parentOf(store)]: parentId,
      uri: values.uri,
      file_name: values.fileName,
      file_size: values.fileSize,
      created_by_id: auth.userId,
      created_at: at,
      updated_at: at,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateAttachment(
  db: DbOrTrx,
  accountId: number,
  store: AttachmentStore,
  id: number,
  values: AttachmentValues,
  at: string,
): Promise<void> {
  await db
    .updateTable(tableOf(store))
    .set({
      uri: values.uri,
      file_name: values.fileName,
      file_size: values.fileSize,
      updated_at: at,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function deleteAttachment(
  db: DbOrTrx,
  accountId: number,
  store: AttachmentStore,
  id: number,
): Promise<void> {
  await db
    .deleteFrom(tableOf(store))
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}
