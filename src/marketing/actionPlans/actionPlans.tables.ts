import type { Generated } from 'kysely';

export type ActionPlanStatus = 'Active' | 'Inactive';
export type PlanPersonStatus = 'Running' | 'Paused' | 'Completed';
export type StepKind = 'task' | 'email' | 'text';

export interface ActionPlansTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string;
  status: ActionPlanStatus;
  created_at: string;
  updated_at: string;
}

export interface ActionPlanStepsTable {
  id: Generated<number>;
  account_id: number;
  action_plan_id: number;
  position: number;
  delay_days: number;
  kind: StepKind;
  task_type: string | null;
  task_name: string | null;
  template_id: number | null;
}

export interface ActionPlansPeopleTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  action_plan_id: number;
  status: PlanPersonStatus;
  started_at: string;
  next_due_at: string | null;
  completed_at: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ActionPlanStepRunsTable {
  id: Generated<number>;
  account_id: number;
  plan_person_id: number;
  step_id: number;
  due_at: string;
  executed_at: string;
  task_id: number | null;
  email_id: number | null;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    action_plans: ActionPlansTable;
    action_plan_steps: ActionPlanStepsTable;
    action_plans_people: ActionPlansPeopleTable;
    action_plan_step_runs: ActionPlanStepRunsTable;
  }
}
