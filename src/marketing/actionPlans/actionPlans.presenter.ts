import type { Selectable } from 'kysely';
import type {
  ActionPlansPeopleTable,
  ActionPlansTable,
  ActionPlanStepsTable,
} from './actionPlans.tables.js';

export type ActionPlanRow = Selectable<ActionPlansTable>;
export type StepRow = Selectable<ActionPlanStepsTable>;
export type PlanPersonRow = Selectable<ActionPlansPeopleTable> & {
  action_plan_name: string;
  steps_completed: number | string;
};

export function presentStep(row: StepRow) {
  return {
    id: row.id,
    order: row.position,
    delayDays: row.delay_days,
    kind: row.kind,
    taskType: row.task_type,
    taskName: row.task_name,
    templateId: row.template_id,
  };
}

export function presentActionPlan(row: ActionPlanRow, steps: StepRow[]) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    description: row.description,
    status: row.status,
    steps: steps.map(presentStep),
  };
}

export function presentPlanPerson(row: PlanPersonRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    personId: row.person_id,
    actionPlanId: row.action_plan_id,
    actionPlanName: row.action_plan_name,
    status: row.status,
    started: row.started_at,
    completed: row.completed_at,
    stepsCompleted: Number(row.steps_completed),
  };
}
