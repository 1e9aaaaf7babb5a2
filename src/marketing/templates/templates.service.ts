import type { Trx } from '../../platform/db/database.js';
import { transactional } from '../../platform/db/transactional.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import {
  deleteTemplate,
  editableTemplate,
  insertTemplate,
  type TemplateText,
  updateTemplate,
} from './templates.repo.js';
import type { TemplateKind } from './templates.tables.js';

/** Email and text templates' writes, each in a transaction of its own. */
export const createTemplate = transactional(insertTemplate);

/** Changes a template the caller may change: 404 when they cannot see it, 403 when only read. */
export const changeTemplate = transactional(
  async (
    trx: Trx,
    auth: AuthUser,
    id: number,
    kind: TemplateKind,
    change: Partial<TemplateText>,
    at: string,
  ) => updateTemplate(trx, await editableTemplate(trx, auth, id, kind), change, at),
);

export const removeTemplate = transactional(deleteTemplate);
