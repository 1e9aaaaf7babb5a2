import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { CustomFieldDefinition } from '../customFields/customFields.values.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { readIdList } from '../../platform/http/pagination.js';
import { buildPeopleListQuery } from '../people/people.list.js';
import { type PersonRow, presentPerson } from '../people/people.presenter.js';
import type { PeopleListQuery } from '../people/people.schemas.js';
import type { Static } from '@sinclair/typebox';
import { customHeader, EXPORT_HEADERS } from './columns.js';
import { csvWriter, tagsCell } from './csv-cells.js';

/** People read per query while streaming: keeps memory flat whatever the number exported. */
const PAGE = 1000;

type ListQuery = Static<typeof PeopleListQuery>;

interface ExportShape {
  emails: number;
  phones: number;
  custom: CustomFieldDefinition[];
}

const numbered = (header: string, count: number) =>
  Array.from({ length: Math.max(count, 1) }, (_, i) => (i === 0 ? header : `${header} ${i + 1}`));

export function csvHeader(shape: ExportShape): string[] {
  const h = EXPORT_HEADERS;
  return [
    h.firstName,
    h.lastName,
    ...numbered(h.email, shape.emails),
    ...numbered(h.phone, shape.phones),
    h.street,
    h.city,
    h.state,
    h.code,
    h.country,
    h.stage,
    h.source,
    h.sourceUrl,
    h.tags,
    h.assignedTo,
    h.lender,
    h.price,
    h.contacted,
    h.background,
    h.created,
    ...shape.custom.map(customHeader),
  ];
}

/** One person as the columns of `csvHeader`: what the import reads back into the same person. */
export function csvRecord(row: PersonRow, shape: ExportShape): string[] {
  const emails = (JSON.parse(row.emails) as { value: string }[]).map((e) => e.value);
  const phones = (JSON.parse(row.phones) as { value: string }[]).map((p) => p.value);
  const address = (JSON.parse(row.addresses) as Record<string, string>[])[0] ?? {};
  const custom = JSON.parse(row.custom) as Record<string, unknown>;
  const padded = (values: string[], count: number) =>
    Array.from({ length: Math.max(count, 1) }, (_, i) => values[i] ?? '');
  return [
    row.first_name,
    row.last_name,
    ...padded(emails, shape.emails),
    ...padded(phones, shape.phones),
    address.street ?? '',
    address.city ?? '',
    address.state ?? '',
    address.code ?? '',
    address.country ?? '',
    row.stage_name ?? '',
    row.source,
    row.source_url,
    tagsCell(JSON.parse(row.tags) as string[]),
    row.assigned_name ?? '',
    row.lender_name ?? '',
    row.price === null ? '' : String(row.price),
    row.contacted ? 'yes' : 'no',
    row.background,
    row.created_at,
    ...shape.custom.map((d) => (custom[d.name] === undefined ? '' : String(custom[d.name]))),
  ];
}

/** The visibility-checked, filtered people of GET /v1/people (an `id` list included), by id ascending. */
async function exportQuery(ctx: AppContext, auth: AuthUser, filters: ListQuery) {
  const list = await buildPeopleListQuery(ctx.db, ctx.dialect, auth, filters);
  const ids = filters.id ? readIdList(filters.id) : null;
  return {
    rows: ids ? list.rows.where('people.id', 'in', ids) : list.rows,
    filtered: ids ? list.filtered.where('people.id', 'in', ids) : list.filtered,
  };
}

async function* pages(query: Awaited<ReturnType<typeof exportQuery>>['rows']) {
  let after = 0;
  for (;;) {
    const rows = (await query
      .where('people.id', '>', after)
      .orderBy('people.id')
      .limit(PAGE)
      .execute()) as PersonRow[];
    yield rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

/** The widest email and phone lists among the exported people: the number of Email/Phone columns. */
async function contactColumns(
  ctx: AppContext,
  filtered: Awaited<ReturnType<typeof exportQuery>>['filtered'],
) {
  const length = (column: 'emails' | 'phones') =>
    ctx.dialect === 'sqlite'
      ? sql<number>`max(json_array_length(${sql.ref(`people.${column}`)}))`
      : sql<number>`max(json_array_length(${sql.ref(`people.${column}`)}::json))`;
  const row = await filtered
    .select([length('emails').as('emails'), length('phones').as('phones')])
    .executeTakeFirst();
  return { emails: Number(row?.emails ?? 0), phones: Number(row?.phones ?? 0) };
}

/** Streams the people as CSV (the import's columns) or JSON Lines (full documents, custom fields included). */
export async function exportPeople(
  ctx: AppContext,
  auth: AuthUser,
  filters: ListQuery,
  format: 'csv' | 'jsonl',
  custom: CustomFieldDefinition[],
): Promise<Readable> {
  const query = await exportQuery(ctx, auth, filters);
  if (format === 'jsonl') {
    return Readable.from(
      (async function* () {
        for await (const rows of pages(query.rows))
          if (rows.length)
            yield (
              rows
                .map((row) =>
                  JSON.stringify(presentPerson(row, { only: null, customFields: custom })),
                )
                .join('\n') + '\n'
            );
      })(),
    );
  }
  const shape = { ...(await contactColumns(ctx, query.filtered)), custom };
  const records = Readable.from(
    (async function* () {
      yield csvHeader(shape);
      for await (const rows of pages(query.rows))
        for (const row of rows) yield csvRecord(row, shape);
    })(),
  );
  const csv = csvWriter();
  records.on('error', (err) => csv.destroy(err));
  return records.pipe(csv);
}
