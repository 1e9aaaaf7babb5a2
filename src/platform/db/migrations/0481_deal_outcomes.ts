import { sql } from 'kysely';
import type { AnyDb, DialectName } from '../dialect.js';

/** The pipeline a new account starts with; kept here as it was (accounts.service.ts has the live copy). */
const PIPELINE = 'Sales';
const STAGES: [string, 'won' | 'lost' | null][] = [
  ['New', null],
  ['Showing', null],
  ['Offer', null],
  ['Under contract', null],
  ['Won', 'won'],
  ['Lost', 'lost'],
];

/**
 * Issue 31: deals are marked won or lost. A pipeline stage may say it is where deals are won or
 * lost (`outcome`); closed stages already named so are marked. Every account without a pipeline
 * gets the default one new accounts get, here, once: a GET that wrote it would race other reads,
 * and would bring it back after an Owner deleted every pipeline on purpose.
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('pipeline_stages').addColumn('outcome', 'text').execute();
  await sql`update pipeline_stages set outcome = 'won'
    where closed_stage = 1 and lower(name) in ('won', 'closed won', 'closed', 'sold')`.execute(db);
  await sql`update pipeline_stages set outcome = 'lost'
    where closed_stage = 1 and lower(name) in ('lost', 'closed lost', 'dead')`.execute(db);
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const accounts = await sql<{ id: number }>`select id from accounts a
    where not exists (select 1 from pipelines p where p.account_id = a.id)`.execute(db);
  for (const { id: accountId } of accounts.rows) {
    const pipeline = await sql<{ id: number }>`insert into pipelines
      (account_id, name, description, order_weight, created_at, updated_at)
      values (${accountId}, ${PIPELINE}, '', 10, ${now}, ${now}) returning id`.execute(db);
    const pipelineId = pipeline.rows[0].id;
    for (const [index, [name, outcome]] of STAGES.entries())
      await sql`insert into pipeline_stages (account_id, pipeline_id, name, description,
        order_weight, color, closed_stage, outcome, created_at, updated_at)
        values (${accountId}, ${pipelineId}, ${name}, '', ${(index + 1) * 10}, '',
        ${outcome ? 1 : 0}, ${outcome}, ${now}, ${now})`.execute(db);
  }
}
