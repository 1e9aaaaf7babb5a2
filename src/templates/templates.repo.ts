import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import { type AuthUser, seesEveryone } from '../http/auth.js';
import type { TemplatesTable } from './templates.tables.js';
import './templates.tables.js';

export type TemplateRow = Selectable<TemplatesTable>;

/** Owner and Admin see every template of the account; other users their own and the shared ones. */
export function visibleTemplates(db: DbOrTrx, auth: AuthUser) {
  let query = db.selectFrom('templates').selectAll().where('account_id', '=', auth.accountId);
  if (!seesEveryone(auth)) {
    query = query.where((eb) => eb.or([eb('is_shared', '=', 1), eb('created_by_id', '=', auth.userId)]));
  }
  return query;
}

export async function findVisibleTemplate(db: DbOrTrx, auth: AuthUser, id: number): Promise<TemplateRow | undefined> {
  return visibleTemplates(db, auth).where('id', '=', id).executeTakeFirst();
}

export async function findTemplateInAccount(db: DbOrTrx, accountId: number, id: number): Promise<TemplateRow | undefined> {
  return db.selectFrom('templates').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** May this user change or delete the template? Owner/Admin any, others only those they created. */
export function canEditTemplate(auth: AuthUser, row: TemplateRow): boolean {
  return seesEveryone(auth) || row.created_by_id === auth.userId;
}

/** Names of the action plans that send from this template (it cannot be deleted while any does). */
export async function plansUsingTemplate(db: DbOrTrx, accountId: number, templateId: number): Promise<string[]> {
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
