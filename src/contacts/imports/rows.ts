import { mappedId, mappedSource } from './values.js';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type Static, Type } from '@sinclair/typebox';
import type { DbOrTrx } from '../../platform/db/database.js';
import { applyCustomValues } from '../customFields/customFields.values.js';
import { type PersonState, emptyPersonState } from '../people/people.state.js';
import { type PersonBody, personInputFields } from '../people/people.schemas.js';
import { applyPersonInput } from '../people/people.input.js';
import { importedDate, importedTimestamp, notADate } from './dates.js';
import type { ColumnPlan } from './plan.js';
import { tagsFromCell, unneutralise } from './csv-cells.js';

/** A row that cannot be imported; its message goes to the error report. */
export class RowError extends Error {}

export interface ImportedRow {
  state: PersonState;
  /** the row's Created column, else null (now) */
  createdAt: string | null;
  /** what was taken in with a substitute (an unknown stage or user), for the import's warnings */
  warnings: string[];
  /** its agent matched no user: the importing user stands in (batch.ts) */
  agentUnknown: boolean;
}

type PersonInput = Static<typeof PersonBody>;
/** POST /v1/people's checks of the standard fields (custom values are checked by applyCustomValues). */
const CHECKED = [
  'name',
  'firstName',
  'lastName',
  'source',
  'sourceUrl',
  'background',
  'contacted',
  'emails',
  'phones',
  'addresses',
  'tags',
] as const;
const personCheck = TypeCompiler.Compile(
  Type.Object(Object.fromEntries(CHECKED.map((k) => [k, personInputFields[k]]))),
);

const split = (value: string, separators: RegExp) =>
  value
    .split(separators)
    .map((v) => v.trim())
    .filter(Boolean);

const YES = new Set(['yes', 'y', 'true', '1', 'x']);
const NO = new Set(['no', 'n', 'false', '0']);

/** A row's stage, agent or lender that matches nothing: what the person gets instead. */
function substitute(plan: ColumnPlan, field: 'stage' | 'assignedTo' | 'lender'): string {
  if (field === 'assignedTo') return 'so the person is assigned to you';
  if (field === 'lender') return 'so the person has no lender';
  const stage = plan.defaultStageId === null ? null : plan.stageNames.get(plan.defaultStageId);
  return stage ? `so the person gets the stage ${stage}` : 'so the person keeps their stage';
}

interface Collected {
  input: PersonInput & Record<string, unknown>;
  address: Record<string, string>;
  ids: { stageId?: number; assignedUserId?: number; assignedLenderId?: number };
  custom: Record<string, unknown>;
  createdAt: string | null;
  warnings: string[];
  agentUnknown: boolean;
}

const ID_FIELDS = {
  stage: 'stageId',
  assignedTo: 'assignedUserId',
  lender: 'assignedLenderId',
} as const;

function collect(plan: ColumnPlan, record: string[]): Collected {
  const out: Collected = {
    input: {},
    address: {},
    ids: {},
    custom: {},
    createdAt: null,
    warnings: [],
    agentUnknown: false,
  };
  const emails: { value: string; type?: string }[] = [];
  const phones: { value: string; type?: string }[] = [];
  const tags: string[] = [];
  plan.columns.forEach((target, i) => {
    const value = unneutralise(record[i] ?? '').trim();
    if (!target || value === '') return;
    const column = plan.header[i];
    if ('custom' in target) {
      if (target.custom.type !== 'date') return void (out.custom[target.custom.name] = value);
      const day = importedDate(value, plan.dateFormat);
      if (day === null) throw new RowError(notADate(column, value, plan.dateFormat));
      return void (out.custom[target.custom.name] = day);
    }
    const type = target.contactType;
    switch (target.field) {
      case 'email':
        for (const v of split(value, /[,;\s]+/))
          emails.push(type ? { value: v, type } : { value: v });
        return;
      case 'phone':
        for (const v of split(value, /[,;]+/))
          phones.push(type ? { value: v, type } : { value: v });
        return;
      case 'tags':
        return void tags.push(...tagsFromCell(value));
      case 'street':
      case 'city':
      case 'state':
      case 'code':
      case 'country':
        return void (out.address[target.field] = value);
      case 'street2':
        return void (out.address.street2 = value);
      case 'stage':
      case 'assignedTo':
      case 'lender': {
        const names = target.field === 'stage' ? plan.stages : plan.users;
        const id = mappedId(plan.values, target.field, value) ?? names.get(value.toLowerCase());
        if (id !== undefined) return void (out.ids[ID_FIELDS[target.field]] = id);
        const what = target.field === 'stage' ? 'stage' : 'user (by name or email)';
        out.warnings.push(
          `${column}: '${value}' matches no ${what}, ${substitute(plan, target.field)}`,
        );
        return void (out.agentUnknown ||= target.field === 'assignedTo');
      }
      case 'price': {
        const price = Number(value.replace(/[$€£,\s]/g, ''));
        if (!Number.isFinite(price) || price < 0)
          throw new RowError(`${column}: '${value}' is not a price`);
        return void (out.input.price = price);
      }
      case 'contacted': {
        const lower = value.toLowerCase();
        if (!YES.has(lower) && !NO.has(lower))
          throw new RowError(`${column}: '${value}' is not yes or no`);
        return void (out.input.contacted = YES.has(lower));
      }
      case 'created': {
        const createdAt = importedTimestamp(value, plan.dateFormat);
        if (createdAt === null) throw new RowError(notADate(column, value, plan.dateFormat));
        return void (out.createdAt = createdAt);
      }
      case 'source':
        return void (out.input.source = mappedSource(plan.values, value));
      default:
        out.input[target.field] = value;
    }
  });
  if (emails.length) out.input.emails = emails;
  if (phones.length) out.input.phones = phones;
  if (tags.length) out.input.tags = tags;
  return out;
}

function addressOf(parts: Record<string, string>) {
  if (Object.keys(parts).length === 0) return undefined;
  const { street2, ...rest } = parts;
  const street = [rest.street, street2].filter(Boolean).join(', ');
  return [{ ...rest, ...(street ? { street } : {}) }];
}

/**
 * One CSV record as the person it describes, checked as POST /v1/people checks a body (the same
 * schema and the same normalisation of names, emails, phones and tags). Returns null for a row
 * with nothing in it; throws RowError (or the people code's 400) for a row that cannot be imported.
 */
export async function rowToPerson(
  db: DbOrTrx,
  accountId: number,
  plan: ColumnPlan,
  record: string[],
): Promise<ImportedRow | null> {
  if (record.length > plan.header.length && record.slice(plan.header.length).some((v) => v.trim()))
    throw new RowError(
      `The row has ${record.length} columns but the header has ${plan.header.length}`,
    );
  if (record.every((v) => v.trim() === '')) return null;
  if (record.some((v) => v.includes('\0')))
    throw new RowError('The row contains a NUL character (is the file binary?)');
  const { input, address, ids, custom, createdAt, warnings, agentUnknown } = collect(plan, record);
  splitLastFirst(input);
  const addresses = addressOf(address);
  if (addresses) input.addresses = addresses;
  if (!personCheck.Check(input)) {
    const first = personCheck.Errors(input).First();
    throw new RowError(`${first?.path.slice(1) || 'row'}: ${first?.message ?? 'invalid'}`);
  }
  if (![input.name, input.firstName, input.lastName, input.emails, input.phones].some(Boolean))
    throw new RowError('The row has no name, email or phone to identify the person');
  // Names of stages and users were resolved from the plan above: applyPersonInput gets plain fields.
  const state = await applyPersonInput(db, accountId, emptyPersonState(), input);
  if (Object.keys(custom).length) state.custom = applyCustomValues({}, custom, plan.custom);
  Object.assign(state, ids);
  return { state, createdAt, warnings, agentUnknown };
}

/** A Name written "Last, First" (as many CRMs export it) is read as such. */
function splitLastFirst(input: PersonInput) {
  if (input.name === undefined || input.firstName !== undefined || input.lastName !== undefined)
    return;
  const parts = input.name.split(',').map((p) => p.trim());
  if (parts.length !== 2 || !parts[0] || !parts[1]) return;
  input.lastName = parts[0];
  input.firstName = parts[1];
  delete input.name;
}
