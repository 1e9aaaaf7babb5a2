import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export type StageOutcome = 'won' | 'lost';

export interface PipelinesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string;
  order_weight: number;
  created_at: string;
  updated_at: string;
}

export interface PipelineStagesTable {
  id: Generated<number>;
  account_id: number;
  pipeline_id: number;
  name: string;
  description: string;
  order_weight: number;
  color: string;
  closed_stage: Flag;
  /** where a deal is won or lost (migration 0481); such a stage is closed */
  outcome: StageOutcome | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    pipelines: PipelinesTable;
    pipeline_stages: PipelineStagesTable;
  }
}
