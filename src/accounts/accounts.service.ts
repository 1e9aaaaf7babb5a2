import type { Db, Trx, UsersTable } from '../platform/db/database.js';
import { isoSeconds } from '../platform/time.js';
import { hashSecret, newSecret } from './keys.js';
import type {} from '../timeline/appointmentTypes/appointmentTypes.tables.js';
import type {} from '../deals/pipelines/pipelines.tables.js';

/** The stages every new account starts with; Lead and Trash are built in and protected. */
export const DEFAULT_STAGES: { name: string; isProtected: boolean }[] = [
  { name: 'Lead', isProtected: true },
  { name: 'Prospect', isProtected: false },
  { name: 'Active Client', isProtected: false },
  { name: 'Under Contract', isProtected: false },
  { name: 'Closed', isProtected: false },
  { name: 'Past Client', isProtected: false },
  { name: 'Sphere', isProtected: false },
  { name: 'Nurture', isProtected: false },
  { name: 'Unresponsive', isProtected: false },
  { name: 'Trash', isProtected: true },
];

export const STAGE_WEIGHT_STEP = 10;

/**
 * The deals pipeline every new account starts with (migration 0481 gave it to existing accounts
 * that had none): a Deals board that works on day one, with stages where deals are won or lost.
 */
export const DEFAULT_PIPELINE = {
  name: 'Sales',
  stages: [
    ['New', null],
    ['Showing', null],
    ['Offer', null],
    ['Under contract', null],
    ['Won', 'won'],
    ['Lost', 'lost'],
  ] as [string, 'won' | 'lost' | null][],
};

async function insertDefaultPipeline(trx: Trx, accountId: number, stamp: string) {
  const pipeline = await trx
    .insertInto('pipelines')
    .values({
      account_id: accountId,
      name: DEFAULT_PIPELINE.name,
      description: '',
      order_weight: STAGE_WEIGHT_STEP,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('pipeline_stages')
    .values(
      DEFAULT_PIPELINE.stages.map(([name, outcome], index) => ({
        account_id: accountId,
        pipeline_id: pipeline.id,
        name,
        description: '',
        order_weight: (index + 1) * STAGE_WEIGHT_STEP,
        color: '',
        closed_stage: outcome ? 1 : 0,
        outcome,
        created_at: stamp,
        updated_at: stamp,
      })),
    )
    .execute();
}

/**
 * The appointment types and outcomes every new account starts with, ordered 10, 20, 30… like the
 * stages; none is protected. Migration 0120 gave existing accounts the same lists.
 */
export const DEFAULT_APPOINTMENT_TYPES = [
  'Buyer Consultation',
  'Listing Appointment',
  'Showing',
  'Closing',
  'Other',
];
export const DEFAULT_APPOINTMENT_OUTCOMES = ['Met', 'No Show', 'Rescheduled', 'Canceled'];

export type UserRole = UsersTable['role'];
export const USER_ROLES: UserRole[] = ['Owner', 'Admin', 'Agent', 'Lender'];

export interface CreatedUser {
  user: { id: number; name: string; email: string; role: UserRole };
  apiKey: string;
}

function splitName(name: string): { first: string; last: string } {
  const parts = name.trim().split(/\s+/);
  return { first: parts[0] ?? '', last: parts.slice(1).join(' ') };
}

export async function insertUser(
  trx: Trx,
  accountId: number,
  input: { name: string; email: string; role: UserRole; phone?: string },
  now = Date.now(),
): Promise<CreatedUser> {
  const apiKey = newSecret('hk');
  const { first, last } = splitName(input.name);
  const stamp = isoSeconds(now);
  const row = await trx
    .insertInto('users')
    .values({
      account_id: accountId,
      name: input.name.trim(),
      first_name: first,
      last_name: last,
      email: input.email.trim().toLowerCase(),
      phone: input.phone ?? '',
      role: input.role,
      api_key_hash: hashSecret(apiKey),
      created_at: stamp,
      updated_at: stamp,
    })
    .returning(['id', 'name', 'email', 'role'])
    .executeTakeFirstOrThrow();
  return { user: row, apiKey };
}

export async function createAccount(
  db: Db,
  input: { name: string; ownerName: string; ownerEmail: string },
  now = Date.now(),
): Promise<{ account: { id: number; name: string } } & CreatedUser> {
  return db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('accounts')
      .values({ name: input.name.trim(), created_at: isoSeconds(now) })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    const stamp = isoSeconds(now);
    await trx
      .insertInto('stages')
      .values(
        DEFAULT_STAGES.map((stage, index) => ({
          account_id: account.id,
          name: stage.name,
          order_weight: (index + 1) * STAGE_WEIGHT_STEP,
          is_protected: stage.isProtected ? 1 : 0,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
    const labels = (names: string[]) =>
      names.map((name, index) => ({
        account_id: account.id,
        name,
        order_weight: (index + 1) * STAGE_WEIGHT_STEP,
        created_at: stamp,
        updated_at: stamp,
      }));
    await trx.insertInto('appointment_types').values(labels(DEFAULT_APPOINTMENT_TYPES)).execute();
    await trx
      .insertInto('appointment_outcomes')
      .values(labels(DEFAULT_APPOINTMENT_OUTCOMES))
      .execute();
    await insertDefaultPipeline(trx, account.id, stamp);
    const owner = await insertUser(
      trx,
      account.id,
      { name: input.ownerName, email: input.ownerEmail, role: 'Owner' },
      now,
    );
    return { account, ...owner };
  });
}

export async function createUser(
  db: Db,
  input: { accountId: number; name: string; email: string; role: UserRole },
): Promise<CreatedUser> {
  return db.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', input.accountId)
      .executeTakeFirst();
    if (!account) throw new Error(`Account ${input.accountId} does not exist`);
    return insertUser(trx, input.accountId, input);
  });
}

/** Registers an integrating system for the whole installation; its key is shown once. */
export async function createSystem(
  db: Db,
  name: string,
  now = Date.now(),
): Promise<{ system: string; systemKey: string }> {
  const systemKey = newSecret('hsk');
  await db
    .insertInto('systems')
    .values({ name: name.trim(), key_hash: hashSecret(systemKey), created_at: isoSeconds(now) })
    .execute();
  return { system: name.trim(), systemKey };
}
