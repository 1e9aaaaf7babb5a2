import type { CustomFieldDefinition } from '../customFields/customFields.values.js';
import type { DbOrTrx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { loadDefinitions } from '../customFields/customFields.values.js';
import { defaultStageId } from '../people/people.repo.js';
import type { DateFormat } from './dates.js';
import type { ValueMap } from './values.js';
import {
  type ColumnTarget,
  EXPORT_HEADERS,
  IMPORT_FIELDS,
  mappedTarget,
  recognise,
} from './columns.js';

/** What the import knows before reading rows: each column's meaning and the account's names. */
export interface ColumnPlan {
  header: string[];
  columns: (ColumnTarget | null)[];
  custom: CustomFieldDefinition[];
  /** lower-case stage name → id */
  stages: Map<string, number>;
  /** stage id → name, for the peopleStageUpdated events */
  stageNames: Map<number, string>;
  /** lower-case user name or email → id */
  users: Map<string, number>;
  /** the stage of a new person without one (Lead), resolved once for the whole file */
  defaultStageId: number | null;
  /** how the file writes day and month (dates.ts) */
  dateFormat: DateFormat;
  /** the file's stage, agent, lender and source values mapped in the wizard (values.ts) */
  values: ValueMap;
}

const IDENTIFYING = new Set(['firstName', 'lastName', 'name', 'email', 'phone']);

/** Parses the `mapping` query argument: a JSON object of header → field. */
export function parseMapping(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(
      `'mapping' must be a JSON object of column header → field, e.g. {"E-mail":"email"}`,
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw badRequest(`'mapping' must be a JSON object of column header → field`);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.some(([, v]) => typeof v !== 'string'))
    throw badRequest(`'mapping' values must be field names (strings), or "ignore"`);
  return Object.fromEntries(entries) as Record<string, string>;
}

/**
 * Each column's target: the explicit mapping first, else the recognised header. Throws 400 when a
 * mapping names a column or field that does not exist, or when no column identifies a person.
 */
export function planColumns(
  header: string[],
  mapping: Record<string, string>,
  custom: CustomFieldDefinition[],
): (ColumnTarget | null)[] {
  const missing = Object.keys(mapping).filter((h) => !header.includes(h));
  if (missing.length)
    throw badRequest(
      `'mapping' names column(s) not in the header: ${missing.join(', ')}; the header is: ${header.join(', ')}`,
    );
  const columns = header.map((h) => {
    if (!Object.hasOwn(mapping, h)) return recognise(h, custom);
    const target = mappedTarget(mapping[h], custom);
    if (target === undefined)
      throw badRequest(
        `'mapping' maps '${h}' to '${mapping[h]}', which is not a field; use one of: ${IMPORT_FIELDS.join(', ')}, a custom field name, or ignore`,
      );
    return target;
  });
  if (!columns.some((c) => c && 'field' in c && IDENTIFYING.has(c.field))) {
    const known = Object.values(EXPORT_HEADERS).join(', ');
    throw badRequest(
      `No column names a person: the first line must be column headers, and one of them a name, email or phone. ` +
        `Found: ${header.slice(0, 20).join(', ')}${header.length > 20 ? '…' : ''}. ` +
        `Recognised headers include: Name, ${known} and the labels of your custom fields; ` +
        `or map your columns with ?mapping={"Your header":"email"}`,
    );
  }
  return columns;
}

export async function loadPlan(
  db: DbOrTrx,
  accountId: number,
  header: string[],
  mapping: Record<string, string>,
  dateFormat: DateFormat,
  values: ValueMap = {},
): Promise<ColumnPlan> {
  const custom = await loadDefinitions(db, accountId, 'person');
  const [stages, users] = await Promise.all([
    db.selectFrom('stages').select(['id', 'name']).where('account_id', '=', accountId).execute(),
    db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const userMap = new Map<string, number>();
  // Ascending ids win a clash of names, as the people routes resolve names (first user by id).
  for (const u of users) {
    userMap.set(u.name.trim().toLowerCase(), u.id);
    userMap.set(u.email.trim().toLowerCase(), u.id);
  }
  return {
    header,
    columns: planColumns(header, mapping, custom),
    custom,
    stages: new Map(stages.map((s) => [s.name.toLowerCase(), s.id])),
    stageNames: new Map(stages.map((s) => [s.id, s.name])),
    users: userMap,
    defaultStageId: await defaultStageId(db, accountId),
    dateFormat,
    values,
  };
}
