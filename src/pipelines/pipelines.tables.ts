import type { Generated } from 'kysely';
import type { Flag } from '../db/database.js';

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
  created_at: string;
  updated_at: string;
}

declare module '../db/extension-tables.js' {
  interface ExtensionTables {
    pipelines: PipelinesTable;
    pipeline_stages: PipelineStagesTable;
  }
}
