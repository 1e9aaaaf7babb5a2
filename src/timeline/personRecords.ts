import type { Insertable, Kysely, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import type { AppContext } from '../platform/context.js';
import type { DB, DbOrTrx, Trx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { type Page, type ListRequest, paginate, readPage } from '../platform/http/pagination.js';
import { onlyVisiblePeople } from '../access/visibility.js';
import { touchLastActivity } from '../contacts/people/people.activity.js';
import type { EventName } from '../accounts/webhooks/event-names.js';
import { emit } from '../accounts/webhooks/outbox.js';
import { isoSeconds } from '../platform/time.js';
import { markContactedByOutgoing } from '../contacts/people/people.contacted.js';
import { missing, timelineSort } from './timeline.shared.js';

/**
 * The one implementation of the records that hang off a person (calls, texts, emails, tasks,
 * appointments, relationships): who sees them, reading one or a page, and the writes, each in its
 * own transaction together with its outbox event. A resource configures it with its table, its
 * label and its events; its repo adds the filters of its list and the values of its writes.
 */
export type PersonRecordTable =
  | 'calls'
  | 'text_messages'
  | 'emails'
  | 'tasks'
  | 'appointments'
  | 'people_relationships'
  | 'notes';

export type RecordRow<T extends PersonRecordTable> = Selectable<DB[T]>;
type RecordQuery<T extends PersonRecordTable> = SelectQueryBuilder<DB, T, RecordRow<T>>;

export interface PersonRecordKind<T extends PersonRecordTable> {
  table: T;
  /** Names the record in errors: "Call 5 not found". */
  label: string;
  events: { created: EventName; updated: EventName; deleted: EventName };
  /** Who sees which records; by default the records of the people the caller may see. */
  visible?: (db: DbOrTrx, auth: AuthUser) => RecordQuery<T>;
  /** Sorts the list takes besides id, created and updated: name → column. */
  sorts?: Record<string, string>;
}

type OutgoingRecord = { person_id: number | null; is_incoming: number };

/** Columns the writes set themselves. */
type Stamped = 'account_id' | 'created_at' | 'updated_at';

/** What a write does besides its own row and event, inside the same transaction (after both). */
type AfterWrite<T extends PersonRecordTable> = (
  trx: Trx,
  row: RecordRow<T>,
  write: { before?: RecordRow<T>; now: number; at: string },
) => Promise<void>;

export interface CreateOptions<T extends PersonRecordTable> {
  /** The person's lastActivity moves to the record's creation (an interaction on the timeline). */
  touchesPerson?: boolean;
  /** An outgoing record (is_incoming 0) sets the person's `contacted`: calls, texts, emails. */
  contactsPerson?: boolean;
  /** The event is emitted only when this says so (appointments synced from a calendar emit none). */
  emits?: (row: RecordRow<T>) => boolean;
  after?: AfterWrite<T>;
}

// A generic table name defeats Kysely's per-table typing: the SQL here is built on an untyped
// handle, and the rows are typed at this module's boundary instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Untyped = any;
const untyped = (db: DbOrTrx) => db as unknown as Kysely<Untyped>;

export function personRecords<T extends PersonRecordTable>(kind: PersonRecordKind<T>) {
  const { label, events } = kind;
  const table: string = kind.table;
  const visible =
    kind.visible ??
    ((db: DbOrTrx, auth: AuthUser) =>
      onlyVisiblePeople(
        untyped(db)
          .selectFrom(table)
          .selectAll(table)
          .where(`${table}.account_id`, '=', auth.accountId),
        db,
        auth,
        `${table}.person_id`,
      ) as unknown as RecordQuery<T>);

  const find = (db: DbOrTrx, auth: AuthUser, id: number): Promise<RecordRow<T> | undefined> =>
    (visible(db, auth) as SelectQueryBuilder<Untyped, Untyped, Untyped>)
      .where(`${table}.id`, '=', id)
      .executeTakeFirst() as Promise<RecordRow<T> | undefined>;

  const get = async (db: DbOrTrx, auth: AuthUser, id: number): Promise<RecordRow<T>> =>
    (await find(db, auth, id)) ?? missing(label, id);

  return {
    visible,
    find,
    get,

    /** One page of `query` (the caller's visible records, filtered), in the order `?sort=` asks. */
    page(
      request: ListRequest,
      ctx: AppContext,
      collection: string,
      query: RecordQuery<T>,
      q: { sort?: string; limit?: number; offset?: number; next?: string },
    ): Promise<Page<RecordRow<T> & { id: number }>> {
      return paginate<RecordRow<T> & { id: number }>(request, {
        collection,
        query,
        page: readPage(q),
        sort: timelineSort(q.sort, table, kind.sorts),
        idExpression: `${table}.id`,
        publicUrl: ctx.config.publicUrl,
      });
    },

    /** A page as its list answers it: `{ _metadata, <collection>: presented rows }`. */
    async listed<Name extends string, Shown>(
      request: ListRequest,
      ctx: AppContext,
      collection: Name,
      query: RecordQuery<T>,
      q: { sort?: string; limit?: number; offset?: number; next?: string },
      present: (row: RecordRow<T>) => Shown,
    ) {
      const page = await this.page(request, ctx, collection, query, q);
      return { _metadata: page.metadata, [collection]: page.rows.map((row) => present(row)) } as {
        _metadata: typeof page.metadata;
      } & Record<Name, Shown[]>;
    },

    /** Stores a record in the caller's account; `values` runs inside the transaction (checks). */
    create(
      ctx: AppContext,
      auth: AuthUser,
      values: (trx: Trx, at: string) => Promise<Omit<Insertable<DB[T]>, Stamped>>,
      options: CreateOptions<T> = {},
    ): Promise<number> {
      const now = ctx.clock.now();
      const at = isoSeconds(now);
      return ctx.db.transaction().execute(async (trx) => {
        const row = (await untyped(trx)
          .insertInto(table)
          .values({
            ...(await values(trx, at)),
            account_id: auth.accountId,
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow()) as RecordRow<T> & { id: number; person_id?: number | null };
        if (options.touchesPerson && row.person_id)
          await touchLastActivity(trx, auth.accountId, row.person_id, at);
        if (options.contactsPerson)
          await markContactedByOutgoing(trx, auth.accountId, row as unknown as OutgoingRecord, at);
        if (options.emits?.(row) ?? true)
          await emit(trx, auth.accountId, events.created, [row.id], undefined, now);
        await options.after?.(trx, row, { now, at });
        return row.id;
      });
    },

    /** Changes a record the caller may see (404 otherwise); `change` gets the stored row. */
    async update(
      ctx: AppContext,
      auth: AuthUser,
      id: number,
      change: (
        trx: Trx,
        row: RecordRow<T>,
        at: string,
      ) => Promise<Omit<Updateable<DB[T]>, Stamped>>,
      options: Omit<CreateOptions<T>, 'touchesPerson'> = {},
    ): Promise<void> {
      const now = ctx.clock.now();
      const at = isoSeconds(now);
      await ctx.db.transaction().execute(async (trx) => {
        const before = await get(trx, auth, id);
        const row = (await untyped(trx)
          .updateTable(table)
          .set({ ...(await change(trx, before, at)), updated_at: at })
          .where('account_id', '=', auth.accountId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow()) as RecordRow<T>;
        if (options.emits?.(row) ?? true)
          await emit(trx, auth.accountId, events.updated, [id], undefined, now);
        await options.after?.(trx, row, { before, now, at });
      });
    },

    /** Deletes a record the caller may see (404 otherwise). */
    async remove(
      ctx: AppContext,
      auth: AuthUser,
      id: number,
      options: Omit<CreateOptions<T>, 'touchesPerson'> = {},
    ): Promise<void> {
      const now = ctx.clock.now();
      await ctx.db.transaction().execute(async (trx) => {
        const row = await get(trx, auth, id);
        await untyped(trx)
          .deleteFrom(table)
          .where('account_id', '=', auth.accountId)
          .where('id', '=', id)
          .execute();
        if (options.emits?.(row) ?? true)
          await emit(trx, auth.accountId, events.deleted, [id], undefined, now);
        await options.after?.(trx, row, { now, at: isoSeconds(now) });
      });
    },
  };
}
