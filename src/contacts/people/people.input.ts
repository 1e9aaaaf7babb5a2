import type { Static } from '@sinclair/typebox';
import type { DbOrTrx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import {
  applyCustomValues,
  hasCustomKeys,
  loadDefinitions,
} from '../customFields/customFields.values.js';
import { findPond } from '../people/assignment.js';
import { timeframeIdOf } from '../timeframes/timeframes.js';
import { isoSeconds, parseTimestamp } from '../../platform/time.js';
import type { PersonBody } from './people.schemas.js';
import type {
  StoredAddress,
  StoredCollaborator,
  StoredEmail,
  StoredPhone,
} from './people.presenter.js';
import { normalizePhone } from './people.matching.js';
import { type PersonState, uniqueTags } from './people.state.js';

export type PersonInput = Static<typeof PersonBody>;
type ContactInput = NonNullable<PersonInput['emails']>[number];

/** Websites are named by their domain without "www.". */
export function cleanSource(source: string): string {
  return source.trim().replace(/^www\./i, '');
}

function toContact(input: ContactInput, index: number): StoredEmail {
  const item = typeof input === 'string' ? { value: input } : input;
  return {
    value: item.value.trim(),
    type: item.type ?? (index === 0 ? 'home' : 'other'),
    status: item.status ?? 'Not Validated',
    isPrimary: toBool(item.isPrimary) ?? index === 0,
  };
}

export function toEmails(input: ContactInput[]): StoredEmail[] {
  const seen = new Set<string>();
  const out: StoredEmail[] = [];
  input.map(toContact).forEach((email) => {
    const key = email.value.toLowerCase();
    if (!email.value || seen.has(key)) return;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value))
      throw badRequest(`'${email.value}' is not a valid email address`, [
        { field: 'emails', message: 'invalid email address' },
      ]);
    seen.add(key);
    out.push(email);
  });
  return out;
}

export function toPhones(input: ContactInput[]): StoredPhone[] {
  const seen = new Set<string>();
  const out: StoredPhone[] = [];
  input.map(toContact).forEach((phone) => {
    const normalized = normalizePhone(phone.value);
    if (!phone.value || seen.has(normalized)) return;
    if (normalized.length < 3)
      throw badRequest(`'${phone.value}' is not a valid phone number`, [
        { field: 'phones', message: 'invalid phone number' },
      ]);
    seen.add(normalized);
    out.push({ ...phone, type: phone.type === 'home' ? 'mobile' : phone.type, normalized });
  });
  return out;
}

export function toAddresses(input: NonNullable<PersonInput['addresses']>): StoredAddress[] {
  return input.map((a) => ({
    street: a.street?.trim() ?? '',
    city: a.city?.trim() ?? '',
    state: a.state?.trim() ?? '',
    code: a.code?.trim() ?? '',
    country: a.country?.trim() ?? '',
    type: a.type ?? 'home',
  }));
}

/** A user of the account by id or by name (the API's `assignedTo`); null unassigns; 400 if unknown. */
export async function userInAccount(
  db: DbOrTrx,
  accountId: number,
  by: { id?: number | null; name?: string | null },
  field: string,
) {
  // The id wins when both are sent; null, 0 or "" unassigns.
  if (by.id !== undefined ? !by.id : !by.name) return null;
  let query = db
    .selectFrom('users')
    .select(['id', 'name', 'role'])
    .where('account_id', '=', accountId);
  query = by.id ? query.where('id', '=', by.id) : query.where('name', '=', by.name!.trim());
  const user = await query.orderBy('id').executeTakeFirst();
  if (!user)
    throw badRequest(`${field}: no user ${by.id ?? `named '${by.name}'`} in this account`, [
      { field, message: 'unknown user' },
    ]);
  return user;
}

async function stageInAccount(
  db: DbOrTrx,
  accountId: number,
  by: { id?: number; name?: string },
): Promise<number> {
  let query = db.selectFrom('stages').select('id').where('account_id', '=', accountId);
  query =
    by.id !== undefined ? query.where('id', '=', by.id) : query.where('name', '=', by.name ?? '');
  const stage = await query.executeTakeFirst();
  if (!stage) {
    const field = by.id !== undefined ? 'stageId' : 'stage';
    throw badRequest(
      `Unknown stage ${by.id ?? `'${by.name}'`}; list the stages with GET /v1/stages`,
      [{ field, message: 'unknown stage' }],
    );
  }
  return stage.id;
}

/**
 * Applies a request body to a person's state: resolves names to ids in the caller's account,
 * normalises contacts, checks custom fields. Arrays given are replaced whole (tags merged with
 * `mergeTags`). Throws 400 naming the field for anything it cannot resolve.
 */
export async function applyPersonInput(
  db: DbOrTrx,
  accountId: number,
  current: PersonState,
  input: PersonInput,
  options: { mergeTags?: boolean } = {},
): Promise<PersonState> {
  const next: PersonState = { ...current };
  if (input.firstName !== undefined) next.firstName = input.firstName.trim();
  if (input.lastName !== undefined) next.lastName = input.lastName.trim();
  if (input.name !== undefined && input.firstName === undefined && input.lastName === undefined) {
    const parts = input.name.trim().split(/\s+/).filter(Boolean);
    next.firstName = parts[0] ?? '';
    next.lastName = parts.slice(1).join(' ');
  }
  if (input.name !== undefined || input.firstName !== undefined || input.lastName !== undefined) {
    next.name =
      input.name !== undefined && input.firstName === undefined && input.lastName === undefined
        ? input.name.trim()
        : [next.firstName, next.lastName].filter(Boolean).join(' ');
  }
  if (input.stageId !== undefined)
    next.stageId = await stageInAccount(db, accountId, { id: input.stageId });
  else if (input.stage !== undefined)
    next.stageId = await stageInAccount(db, accountId, { name: input.stage.trim() });
  if (input.source !== undefined) next.source = cleanSource(input.source);
  if (input.sourceUrl !== undefined) next.sourceUrl = input.sourceUrl.trim();
  if (input.price !== undefined) next.price = input.price;
  if (input.background !== undefined) next.background = input.background;
  if (input.timeframeId !== undefined) next.timeframeId = timeframeIdOf(input.timeframeId);
  if (input.contacted !== undefined) next.contacted = toBool(input.contacted) ? 1 : 0;
  if (input.assignedUserId !== undefined || input.assignedTo !== undefined) {
    const user = await userInAccount(
      db,
      accountId,
      { id: input.assignedUserId, name: input.assignedTo },
      input.assignedUserId !== undefined ? 'assignedUserId' : 'assignedTo',
    );
    next.assignedUserId = user?.id ?? null;
  }
  if (input.assignedLenderId !== undefined || input.assignedLenderName !== undefined) {
    const user = await userInAccount(
      db,
      accountId,
      { id: input.assignedLenderId, name: input.assignedLenderName },
      input.assignedLenderId !== undefined ? 'assignedLenderId' : 'assignedLenderName',
    );
    next.assignedLenderId = user?.id ?? null;
  }
  if (input.assignedPondId !== undefined) await applyPond(db, accountId, next, input);
  else if (next.assignedUserId !== null && next.assignedUserId !== current.assignedUserId)
    next.assignedPondId = null; // an agent takes the person out of their pond
  if (input.emails !== undefined) next.emails = toEmails(input.emails);
  if (input.phones !== undefined) next.phones = toPhones(input.phones);
  if (input.addresses !== undefined) next.addresses = toAddresses(input.addresses);
  if (input.tags !== undefined)
    next.tags = uniqueTags(options.mergeTags ? [...current.tags, ...input.tags] : input.tags);
  if (input.collaborators !== undefined)
    next.collaborators = await resolveCollaborators(db, accountId, input.collaborators);
  if (hasCustomKeys(input)) {
    next.custom = applyCustomValues(
      current.custom,
      input,
      await loadDefinitions(db, accountId, 'person'),
    );
  }
  return next;
}

/**
 * A person is either in a pond or with an agent: moving them into a pond unassigns the agent
 * (the pond's lead agent stands in for notifications and action plans).
 */
async function applyPond(
  db: DbOrTrx,
  accountId: number,
  next: PersonState,
  input: PersonInput,
): Promise<void> {
  const pondId = input.assignedPondId ?? null;
  if (pondId !== null) {
    if (input.assignedUserId || input.assignedTo)
      throw badRequest('Send assignedPondId or an assigned agent, not both: a pond has no agent', [
        { field: 'assignedPondId', message: 'conflicts with assignedUserId' },
      ]);
    if (!(await findPond(db, accountId, pondId)))
      throw badRequest(`assignedPondId: no pond ${pondId} in this account; see GET /v1/ponds`, [
        { field: 'assignedPondId', message: 'unknown pond' },
      ]);
    next.assignedUserId = null;
  }
  next.assignedPondId = pondId;
}

async function resolveCollaborators(
  db: DbOrTrx,
  accountId: number,
  input: NonNullable<PersonInput['collaborators']>,
): Promise<StoredCollaborator[]> {
  const ids = [...new Set(input.map((c) => (typeof c === 'number' ? c : c.id)))];
  if (ids.length === 0) return [];
  const users = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  const missing = ids.filter((id) => !users.some((u) => u.id === id));
  if (missing.length)
    throw badRequest(`collaborators: no user ${missing.join(', ')} in this account`, [
      { field: 'collaborators', message: 'unknown user' },
    ]);
  return ids.map((id) => users.find((u) => u.id === id)!);
}

/** POST /v1/people's `createdAt`: a timestamp (src/time.ts rule) not in the future, stored as UTC. */
export function historicalCreatedAt(raw: string, nowMs: number): string {
  const ms = parseTimestamp(raw);
  if (ms === null || ms > nowMs)
    throw badRequest(`createdAt must be an ISO 8601 time that is not in the future, got '${raw}'`, [
      { field: 'createdAt', message: 'an ISO 8601 time, not in the future' },
    ]);
  return isoSeconds(ms);
}
