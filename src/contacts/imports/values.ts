import type { DbOrTrx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';

/**
 * The import's value mapping (issue 31): what the file's own words for a stage, an agent, a lender
 * or a source stand for in Hearth, chosen in the import wizard before importing. Keys are the
 * file's values, compared without case or surrounding space.
 */
export interface ValueMap {
  /** file value → stage id */
  stage?: Record<string, number>;
  /** file value → user id */
  assignedTo?: Record<string, number>;
  lender?: Record<string, number>;
  /** file value → the source to store */
  source?: Record<string, string>;
}

const ID_FIELDS = ['stage', 'assignedTo', 'lender'] as const;
const FIELDS = new Set<string>([...ID_FIELDS, 'source']);
/** Distinct values a file is expected to name per field; a wizard shows at most 50. */
const MAX_VALUES = 500;

const key = (value: string) => value.trim().toLowerCase();

const refuse = (message: string) =>
  badRequest(
    `'values': ${message}. Send a JSON object such as {"stage":{"Hot":12},"assignedTo":{"Bob S.":3},"source":{"zillow":"Zillow"}}`,
    [{ field: 'values', message }],
  );

/** Parses the `values` query argument; ids are checked against the account by checkValueMap. */
export function parseValueMap(raw: string | undefined): ValueMap {
  if (!raw) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw refuse('it is not JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw refuse('not an object');
  const out: ValueMap = {};
  for (const [field, entries] of Object.entries(value as Record<string, unknown>)) {
    if (!FIELDS.has(field))
      throw refuse(`'${field}' cannot be mapped (stage, assignedTo, lender or source)`);
    if (!entries || typeof entries !== 'object' || Array.isArray(entries))
      throw refuse(
        `'${field}' must map the file's values to ${field === 'source' ? 'sources' : 'ids'}`,
      );
    const pairs = Object.entries(entries as Record<string, unknown>);
    if (pairs.length > MAX_VALUES) throw refuse(`'${field}' maps more than ${MAX_VALUES} values`);
    const mapped: Record<string, string | number> = {};
    for (const [from, to] of pairs) {
      const good =
        field === 'source'
          ? typeof to === 'string' && to.length <= 200
          : Number.isInteger(to) && (to as number) > 0;
      if (!good)
        throw refuse(
          `'${field}.${from}' must be ${field === 'source' ? 'a source name' : 'an id'}`,
        );
      mapped[key(from)] = field === 'source' ? (to as string).trim() : (to as number);
    }
    (out as Record<string, unknown>)[field] = mapped;
  }
  return out;
}

/** 400 unless every stage and user the map names is the account's. */
export async function checkValueMap(db: DbOrTrx, accountId: number, map: ValueMap): Promise<void> {
  const stageIds = [...new Set(Object.values(map.stage ?? {}))];
  const userIds = [
    ...new Set([...Object.values(map.assignedTo ?? {}), ...Object.values(map.lender ?? {})]),
  ];
  const known = async (table: 'stages' | 'users', ids: number[]) =>
    ids.length === 0
      ? new Set<number>()
      : new Set(
          (
            await db
              .selectFrom(table)
              .select('id')
              .where('account_id', '=', accountId)
              .where('id', 'in', ids)
              .execute()
          ).map((r) => r.id),
        );
  const stages = await known('stages', stageIds);
  const missingStage = stageIds.find((id) => !stages.has(id));
  if (missingStage !== undefined) throw refuse(`no stage ${missingStage} in this account`);
  const users = await known('users', userIds);
  const missingUser = userIds.find((id) => !users.has(id));
  if (missingUser !== undefined) throw refuse(`no user ${missingUser} in this account`);
}

/** The id the map gives a file's stage, agent or lender value, if any. */
export function mappedId(
  map: ValueMap,
  field: (typeof ID_FIELDS)[number],
  value: string,
): number | undefined {
  return map[field]?.[key(value)];
}

/** The source the map gives a file's source value, else the value itself. */
export function mappedSource(map: ValueMap, value: string): string {
  return map.source?.[key(value)] || value;
}
