import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import type { ListRequest } from '../../platform/http/pagination.js';
import { toBool } from '../../platform/http/schemas.js';
import { isoSeconds } from '../../platform/time.js';
import { underListBudget } from '../../platform/db/query-budget.js';
import { loadDefinitions } from '../customFields/customFields.values.js';
import { withSmartList } from '../smartLists/smartLists.filters.js';
import type {
  PeopleListQuery,
  PersonBody,
  PersonCreateBody,
  PersonCreateQuery,
} from './people.schemas.js';
import { type FieldSelection, presentPerson, STANDARD_FIELDS } from './people.presenter.js';
import { historicalCreatedAt } from './people.input.js';
import { findPersonDocument, findVisiblePerson } from './people.repo.js';
import { createOrMergePerson, updateVisiblePerson } from './people.service.js';
import { peoplePage } from './people.list-page.js';

/**
 * What the /v1/people routes answer, for them and the MCP tools. A person without `fields` is the
 * database-written document (JSON text, sent as it is); with `fields`, the presented object.
 */

/** Reads `fields`: absent → the standard fields; `allFields` → those plus custom fields; a list → just those. */
async function fieldSelection(
  ctx: AppContext,
  accountId: number,
  fields: string | undefined,
): Promise<FieldSelection> {
  if (!fields) return { only: null, customFields: [] };
  const names = fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const all = names.includes('allFields');
  const definitions = await loadDefinitions(ctx.db, accountId, 'person');
  if (all) return { only: null, customFields: definitions };
  const known = new Set<string>([...STANDARD_FIELDS, ...definitions.map((d) => d.name)]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) throw badRequest(`Unknown field(s) in 'fields': ${unknown.join(', ')}`);
  return {
    only: new Set(['id', ...names]),
    customFields: definitions.filter((d) => names.includes(d.name)),
  };
}

/** A page of the people the caller may see (GET /v1/people), within the list's time budget. */
export async function listPeople(
  ctx: AppContext,
  auth: AuthUser,
  request: ListRequest,
  query: Static<typeof PeopleListQuery>,
) {
  // nextLink repeats the request's own query, smartListId included, so later pages apply the list again.
  const filters = await withSmartList(ctx.db, auth, query);
  const selection = query.fields ? await fieldSelection(ctx, auth.accountId, query.fields) : null;
  // A Fastify request's url is a getter of its prototype: copied by name, not spread.
  const listed = { url: request.url, query: request.query, auth };
  return underListBudget(ctx.db, ctx.dialect, ctx.config.listQueryBudgetMs, (db, deadline) =>
    peoplePage(ctx, listed, filters, { db, deadline }, selection),
  );
}

/** A person the caller may see (GET /v1/people/:id): their document, or the fields asked for. */
export async function personAnswer(ctx: AppContext, auth: AuthUser, id: number, fields?: string) {
  if (!fields) return visiblePersonDocument(ctx, auth, id);
  const row = await findVisiblePerson(ctx.db, auth, id);
  if (!row) throw notFound(`Person ${id}`);
  return presentPerson(row, await fieldSelection(ctx, auth.accountId, fields));
}

/** The document (JSON text) of a person the caller may see, or 404. */
export const visiblePersonDocument = (ctx: AppContext, auth: AuthUser, id: number) =>
  writtenPerson(ctx, auth, id, auth);

/** The document of a person (visible to `visibleTo` when given), or 404. */
async function writtenPerson(ctx: AppContext, auth: AuthUser, id: number, visibleTo?: AuthUser) {
  const document = await findPersonDocument(ctx.db, ctx.dialect, auth.accountId, id, visibleTo);
  // Deleted by another request meanwhile, or not the caller's to see.
  if (document === undefined) throw notFound(`Person ${id}`);
  return document;
}

/** POST /v1/people: the person created (or, deduplicating, the one matched and merged into). */
export async function createPersonAnswer(
  ctx: AppContext,
  auth: AuthUser,
  input: Static<typeof PersonCreateBody>,
  query: Static<typeof PersonCreateQuery>,
) {
  const { createdAt, ...body } = input ?? {};
  const now = ctx.clock.now();
  const result = await createOrMergePerson(ctx.db, auth, body, {
    deduplicate: toBool(query.deduplicate) ?? false,
    at: isoSeconds(now),
    createdAt: createdAt === undefined ? undefined : historicalCreatedAt(createdAt, now),
  });
  return { created: result.created, document: await writtenPerson(ctx, auth, result.id) };
}

/** PUT /v1/people/:id: only the fields sent change; the person as GET shows them. */
export async function updatePersonAnswer(
  ctx: AppContext,
  auth: AuthUser,
  id: number,
  body: Static<typeof PersonBody>,
  mergeTags: boolean | undefined,
) {
  await updateVisiblePerson(ctx.db, auth, id, body, {
    mergeTags,
    at: () => isoSeconds(ctx.clock.now()),
    ctx,
  });
  return writtenPerson(ctx, auth, id);
}
