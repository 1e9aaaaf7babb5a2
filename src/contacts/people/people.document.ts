import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../../platform/db/dialect.js';

/**
 * A person's standard fields as a JSON document written by the database: the SQL twin of
 * `presentPerson(row)` without `fields`, for list pages, which spent more time turning rows into
 * JSON than finding them (docs/performance-cpu.md). Here the stored JSON columns are copied into the document as they are (Hearth writes them, always as JSON
 * arrays) and the scalars go through json_object / json_build_object, which escape them.
 * test/contacts/people-document.test.ts holds both presenters to the same output, on SQLite and PostgreSQL.
 */
export function personDocument(dialect: DialectName): RawBuilder<string> {
  const scalars = sql.join(
    (
      [
        ['id', sql`people.id`],
        ['created', sql`people.created_at`],
        ['updated', sql`people.updated_at`],
        ['createdVia', sql`people.created_via`],
        ['lastActivity', sql`people.last_activity`],
        ['name', sql`people.name`],
        ['firstName', sql`people.first_name`],
        ['lastName', sql`people.last_name`],
        ['stage', sql`(select stages.name from stages where stages.id = people.stage_id)`],
        ['stageId', sql`people.stage_id`],
        ['source', sql`people.source`],
        ['sourceUrl', sql`people.source_url`],
        ['contacted', sql`people.contacted`],
        ['price', sql`people.price`],
        [
          'assignedTo',
          sql`(select assigned.name from users as assigned where assigned.id = people.assigned_user_id)`,
        ],
        ['assignedUserId', sql`people.assigned_user_id`],
        ['assignedLenderId', sql`people.assigned_lender_id`],
        [
          'assignedLenderName',
          sql`(select lender.name from users as lender where lender.id = people.assigned_lender_id)`,
        ],
        ['assignedPondId', sql`people.assigned_pond_id`],
        ['background', sql`people.background`],
        ['timeframeId', sql`people.timeframe_id`],
      ] as const
    ).map(([key, value]) => sql`${sql.lit(key)}, ${value}`),
  );
  // The scalars' object without its closing brace (no scalar's JSON ends in one outside quotes),
  // then the JSON columns: the key order of presentPerson.
  const object =
    dialect === 'sqlite' ? sql`json_object(${scalars})` : sql`json_build_object(${scalars})::text`;
  return sql<string>`rtrim(${object}, '}')
    || ',"tags":' || people.tags || ',"emails":' || people.emails || ',"phones":' || people.phones
    || ',"addresses":' || people.addresses || ',"collaborators":' || people.collaborators || '}'`;
}
