import type { TaskRow } from './tasks.repo.js';

export function presentTask(row: TaskRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    personId: row.person_id,
    name: row.name,
    type: row.type,
    assignedUserId: row.assigned_user_id,
    dueDate: row.due_date,
    dueDateTime: row.due_date_time,
    isCompleted: row.is_completed === 1,
    completed: row.completed_at,
    createdById: row.created_by_id,
    remindSecondsBefore: row.remind_seconds_before,
  };
}
