import type { LeadFlowRow } from './leadFlows.service.js';

export function presentLeadFlow(row: LeadFlowRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    source: row.source,
    status: row.status,
    assignedUserId: row.assigned_user_id,
    groupId: row.group_id,
    actionPlanId: row.action_plan_id,
    stageId: row.stage_id,
  };
}
