import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';
import {
  ACTIVITY_SOURCES,
  CONTACT_TABLES,
  contactSecondsOf,
  firstContactOf,
} from './0410_report_counters.js';

/**
 * The triggers that keep 0410's report counters in the transaction of every write (issue 30):
 * the timeline's records, tasks, appointments and their invitees, deals' people and people
 * themselves, written by any code path (services, imports, merges, cascades of a deletion). The
 * same row triggers on both databases; zero counters stay (a rebuild leaves them out).
 */
export interface RowTrigger {
  name: string;
  table: string;
  event: 'insert' | 'delete' | string;
  when?: string;
  statements: string[];
}

const changed = (cols: string[], dialect: DialectName) =>
  cols
    .map((c) => `old.${c} ${dialect === 'sqlite' ? 'is not' : 'is distinct from'} new.${c}`)
    .join(' or ');

function activityTriggers(dialect: DialectName): RowTrigger[] {
  return ACTIVITY_SOURCES.flatMap((s) => {
    const counted = (x: string) =>
      `${x}.${s.user} is not null and ${x}.${s.at} is not null and ${s.when.replaceAll('X.', `${x}.`)}`;
    const add = (x: string) => `insert into report_activity_days (account_id, day, user_id, kind, n)
      select ${x}.account_id, substr(${x}.${s.at}, 1, 10), ${x}.${s.user}, '${s.kind}', 1
      where ${counted(x)}
      on conflict (account_id, day, user_id, kind) do update set n = report_activity_days.n + 1`;
    const take = (x: string) => `update report_activity_days set n = n - 1
      where ${counted(x)} and account_id = ${x}.account_id and day = substr(${x}.${s.at}, 1, 10)
        and user_id = ${x}.${s.user} and kind = '${s.kind}'`;
    const cols = [s.user, s.at, ...(s.kind === 'taskCompleted' ? ['is_completed'] : [])];
    const name = `report_${s.table}_activity`;
    return [
      { name: `${name}_ai`, table: s.table, event: 'insert', statements: [add('new')] },
      { name: `${name}_ad`, table: s.table, event: 'delete', statements: [take('old')] },
      {
        name: `${name}_au`,
        table: s.table,
        event: `update of ${cols.join(', ')}`,
        when: changed(cols, dialect),
        statements: [take('old'), add('new')],
      },
    ];
  });
}

/**
 * Sets the person's first contact again from their records (when one of them went or changed),
 * `only` narrowing when that is needed, then the seconds it took.
 */
const recontact = (personId: string, dialect: DialectName, only = '') => [
  `update report_leads set first_contact_at = ${firstContactOf('report_leads')}
    where person_id = ${personId} ${only}`,
  `update report_leads set contact_seconds = ${contactSecondsOf(dialect)}
    where person_id = ${personId}`,
];

function contactTriggers(dialect: DialectName): RowTrigger[] {
  return CONTACT_TABLES.flatMap((table) => [
    {
      name: `report_${table}_contact_ai`,
      table,
      event: 'insert',
      statements: [
        `update report_leads set first_contact_at = new.created_at,
          contact_seconds = ${contactSecondsOf(dialect).replaceAll('first_contact_at', 'new.created_at')}
        where new.is_incoming = 0 and person_id = new.person_id
          and new.created_at >= created_at
          and (first_contact_at is null or first_contact_at > new.created_at)`,
      ],
    },
    {
      name: `report_${table}_contact_ad`,
      table,
      event: 'delete',
      when: 'old.is_incoming = 0 and old.person_id is not null',
      statements: recontact('old.person_id', dialect, 'and first_contact_at = old.created_at'),
    },
    {
      name: `report_${table}_contact_au`,
      table,
      event: 'update of person_id, is_incoming, created_at',
      when: changed(['person_id', 'is_incoming', 'created_at'], dialect),
      statements: [...recontact('old.person_id', dialect), ...recontact('new.person_id', dialect)],
    },
  ]);
}

/** A counter of report_leads following the rows of `table` that name a person. */
function linkTriggers(table: string, column: string, dialect: DialectName): RowTrigger[] {
  const add = (x: string, delta: string) =>
    `update report_leads set ${column} = ${column} ${delta} where person_id = ${x}.person_id`;
  return [
    { name: `report_${table}_ai`, table, event: 'insert', statements: [add('new', '+ 1')] },
    { name: `report_${table}_ad`, table, event: 'delete', statements: [add('old', '- 1')] },
    {
      name: `report_${table}_au`,
      table,
      event: 'update of person_id',
      when: changed(['person_id'], dialect),
      statements: [add('old', '- 1'), add('new', '+ 1')],
    },
  ];
}

export function peopleTriggers(dialect: DialectName): RowTrigger[] {
  const cols = ['assigned_user_id', 'assigned_lender_id', 'source', 'created_at'];
  return [
    {
      name: 'report_people_ai',
      table: 'people',
      event: 'insert',
      statements: [
        `insert into report_leads (person_id, account_id, created_at, user_id, lender_id, source)
        values (new.id, new.account_id, new.created_at, new.assigned_user_id,
          new.assigned_lender_id, new.source)`,
      ],
    },
    {
      name: 'report_people_au',
      table: 'people',
      event: `update of ${cols.join(', ')}`,
      when: changed(cols, dialect),
      statements: [
        `update report_leads set user_id = new.assigned_user_id,
          lender_id = new.assigned_lender_id, source = new.source, created_at = new.created_at
        where person_id = new.id`,
        ...recontact('new.id', dialect, `and (${changed(['created_at'], dialect)})`),
      ],
    },
  ];
}

export function reportTriggers(dialect: DialectName): RowTrigger[] {
  return [
    ...activityTriggers(dialect),
    ...contactTriggers(dialect),
    ...linkTriggers('appointment_invitees', 'invitations', dialect),
    ...linkTriggers('deal_people', 'deal_links', dialect),
    ...peopleTriggers(dialect),
  ];
}

export async function create(db: AnyDb, dialect: DialectName, t: RowTrigger): Promise<void> {
  const body = t.statements.map((s) => `${s};`).join('\n');
  if (dialect === 'sqlite') {
    const when = t.when ? `when ${t.when}` : '';
    await sql
      .raw(`create trigger ${t.name} after ${t.event} on ${t.table} ${when} begin ${body} end`)
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function hearth_${t.name}() returns trigger language plpgsql as $$
      begin ${body} return null; end $$`,
    )
    .execute(db);
  const when = t.when ? `when (${t.when})` : '';
  await sql
    .raw(
      `create trigger ${t.name} after ${t.event} on ${t.table} for each row ${when}
      execute function hearth_${t.name}()`,
    )
    .execute(db);
}

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  for (const t of reportTriggers(dialect)) await create(db, dialect, t);
}
