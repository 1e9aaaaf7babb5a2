import type { ActionInput, TriggerInput } from './automations.schemas.js';
import type { AutomationRow, RunWithName } from './automations.repo.js';

export function presentAutomation(row: AutomationRow, peopleRunning: number) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    trigger: JSON.parse(row.trigger) as TriggerInput,
    actions: JSON.parse(row.actions) as ActionInput[],
    peopleRunning,
    created: row.created_at,
    updated: row.updated_at,
  };
}

export function presentRun(row: RunWithName) {
  return {
    id: row.id,
    automationId: row.automation_id,
    automationName: row.automation_name,
    personId: row.person_id,
    status: row.status,
    stepsCompleted: row.step,
    waitingUntil: row.status === 'Completed' || row.status === 'Cancelled' ? null : row.wake_at,
    created: row.created_at,
    updated: row.updated_at,
  };
}
