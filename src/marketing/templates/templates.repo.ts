import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { mayChangeOwnedRecord, ownOrShared } from '../../access/ownership.js';
import { conflict, forbidden, notFound } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { containsText } from '../../platform/db/text-match.js';
import type { TemplateKind, TemplatesTable } from './templates.tables.js';
import './templates.tables.js';

export type TemplateRow = Selectable<TemplatesTable>;

const NOUN: Record<TemplateKind, string> = { email: 'Template', text: 'Text message template' };

/** Owner and Admin see every template of the account; other users their own and the shared ones. */
export function visibleTemplates(db: DbOrTrx, auth: AuthUser, kind: TemplateKind) {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('account_id', '=', auth.accountId)
    .where('kind', '=', kind)
    .where((eb) => ownOrShared(eb, auth, { owner: 'created_by_id', shared: 'is_shared' }));
}

export interface TemplateFilters {
  name?: string;
  isShared?: boolean | number | string;
}

/** The templates list of one kind with its filters (name contains, shared or not). */
export function templatesList(
  db: DbOrTrx,
  auth: AuthUser,
  kind: TemplateKind,
  filters: TemplateFilters,
) {
  let query = visibleTemplates(db, auth, kind);
  if (filters.name) query = query.where(containsText('name', filters.name));
  if (filters.isShared !== undefined)
    query = query.where('is_shared', '=', toBool(filters.isShared) ? 1 : 0);
  return query;
}

export async function findVisibleTemplate(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
  kind: TemplateKind,
): Promise<TemplateRow | undefined> {
  return visibleTemplates(db, auth, kind).where('id', '=', id).executeTakeFirst();
}

/** The template the caller may read, or 404. */
export async function readableTemplate(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
  kind: TemplateKind,
): Promise<TemplateRow> {
  const row = await findVisibleTemplate(db, auth, id, kind);
  if (!row) throw notFound(`${NOUN[kind]} ${id}`);
  return row;
}

export async function findTemplateInAccount(
  db: DbOrTrx,
  accountId: number,
  id: number,
  kind: TemplateKind,
): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** May this user change or delete the template? Owner/Admin any, others only those they created. */
export function canEditTemplate(auth: AuthUser, row: TemplateRow): boolean {
  return mayChangeOwnedRecord(auth, row.created_by_id);
}

/** The template if the caller may change it: 404 when they cannot see it, 403 when they only may read it. */
export async function editableTemplate(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
  kind: TemplateKind,
): Promise<TemplateRow> {
  const row = await readableTemplate(db, auth, id, kind);
  if (!canEditTemplate(auth, row))
    throw forbidden('Only the Owner, an Admin or the user who created this template may change it');
  return row;
}

/** Names of the action plans that send from this template (it cannot be deleted while any does). */
export async function plansUsingTemplate(
  db: DbOrTrx,
  accountId: number,
  templateId: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('action_plan_steps as s')
    .innerJoin('action_plans as p', 'p.id', 's.action_plan_id')
    .select('p.name')
    .distinct()
    .where('s.account_id', '=', accountId)
    .where('s.template_id', '=', templateId)
    .orderBy('p.name')
    .execute();
  return rows.map((r) => r.name);
}

export interface TemplateText {
  name: string;
  subject: string;
  body: string;
  isShared: boolean;
}

export async function insertTemplate(
  trx: Trx,
  auth: AuthUser,
  kind: TemplateKind,
  values: TemplateText,
  at: string,
): Promise<TemplateRow> {
  return trx
    .insertInto('templates')
    .values({
      account_id: auth.accountId,
      kind,
      name: values.name.trim(),
      subject: values.subject,
      body: values.body,
      is_shared: values.isShared ? 1 : 0,
      created_by_id: auth.userId,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Applies the given changes; answers the row unchanged (same `updated`) when nothing differs. */
export async function updateTemplate(
  trx: Trx,
  current: TemplateRow,
  change: Partial<TemplateText>,
  at: string,
): Promise<TemplateRow> {
  const next = {
    name: change.name?.trim() ?? current.name,
    subject: change.subject ?? current.subject,
    body: change.body ?? current.body,
    is_shared: change.isShared === undefined ? current.is_shared : change.isShared ? 1 : 0,
  };
  if ((Object.keys(next) as (keyof typeof next)[]).every((k) => next[k] === current[k]))
    return current;
  return trx
    .updateTable('templates')
    .set({ ...next, updated_at: at })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Deletes a template the caller may change, refused while an action plan sends from it (the real
 * API answers 403 for text templates; Hearth's email templates have always answered 409).
 */
export async function deleteTemplate(
  trx: Trx,
  auth: AuthUser,
  id: number,
  kind: TemplateKind,
): Promise<void> {
  const row = await editableTemplate(trx, auth, id, kind);
  const plans = await plansUsingTemplate(trx, auth.accountId, row.id);
  if (plans.length) {
    const message = `${NOUN[kind]} ${row.id} is used by action plan(s) ${plans.map((p) => `'${p}'`).join(', ')}; change their steps first`;
    throw kind === 'text' ? forbidden(message) : conflict(message);
  }
  await trx.deleteFrom('templates').where('id', '=', row.id).execute();
}
