import type { Trx } from '../../platform/db/database.js';
import { insertEmail } from '../../timeline/emails/emails.repo.js';
import { loadMergeData } from './merge-data.js';
import { renderMergeFields } from './merge-fields.js';
import type { TemplateRow } from './templates.repo.js';

/**
 * Logs an email merged from a template on a person's timeline, from their agent (or `agentId`
 * when they have none): what action plan and automation email steps do. Returns the email's id.
 */
export async function logTemplateEmail(
  trx: Trx,
  accountId: number,
  personId: number,
  template: TemplateRow,
  agentId: number | null,
  system: string,
  now: number,
): Promise<number> {
  const merge = await loadMergeData(trx, accountId, personId, agentId);
  const data = merge!.data;
  const body = renderMergeFields(template.body, data);
  return insertEmail(trx, accountId, {
    personId,
    subject: renderMergeFields(template.subject, data),
    body,
    isHtml: /<[a-z][\s\S]*>/i.test(body),
    from: data.agent?.email ?? '',
    to: merge!.email ? [merge!.email] : [],
    userId: merge!.agentId,
    system,
    now,
  });
}
