import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type Static, Type } from '@sinclair/typebox';
import type { DbOrTrx } from '../db/database.js';
import { applyCustomValues } from '../customFields/customFields.values.js';
import { type PersonState, emptyPersonState } from '../people/people.state.js';
import { type PersonBody, personInputFields } from '../people/people.schemas.js';
import { applyPersonInput } from '../people/people.input.js';
import { importedDate, importedTimestamp, notADate } from './dates.js';
import type { ColumnPlan } from './plan.js';

/** A row that cannot be imported; its message goes to the error report. */
export class RowError extends Error {}

export interface ImportedRow {
  state: PersonState;
  /** the row's Created column, else null (now) */
  createdAt: string | null;
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

function userId(plan: ColumnPlan, value: string, column: string): number {
  const id = plan.users.get(value.toLowerCase());
  if (id === undefined)
    throw new RowError(`${column}: no user named or with the email '${value}' in this account`);
  return id;
}

interface Collected {
  input: PersonInput & Record<string, unknown>;
  address: Record<string, string>;
  ids: { stageId?: number; assignedUserId?: number; assignedLenderId?: number };
  custom: Record<string, unknown>;
  createdAt: string | null;
}

function collect(plan: ColumnPlan, record: string[]): Collected {
  const out: Collected = { input: {}, address: {}, ids: {}, custom: {}, createdAt: null };
  const emails: { value: string; type?: string }[] = [];
  const phones: { value: string; type?: string }[] = [];
  const tags: string[] = [];
  plan.columns.forEach((target, i) => {
    const value = (record[i] ?? '').trim();
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
        return void tags.push(...split(value, /[,;|]+/));
      case 'street':
      case 'city':
      case 'state':
      case 'code':
      case 'country':
        return void (out.address[target.field] = value);
      case 'street2':
        return void (out.address.street2 = value);
      case 'stage': {
        const id = plan.stages.get(value.toLowerCase());
        if (id === undefined)
          throw new RowError(`${column}: no stage named '${value}' (see GET /v1/stages)`);
        return void (out.ids.stageId = id);
      }
      case 'assignedTo':
        return void (out.ids.assignedUserId = userId(plan, value, column));
      case 'lender':
        return void (out.ids.assignedLenderId = userId(plan, value, column));
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
  const { input, address, ids, custom, createdAt } = collect(plan, record);
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
  return { state, createdAt };
}
