import type { AnyTool } from './tool.js';
import { createPerson, getPerson, searchPeople, updatePerson } from './people.tools.js';
import { addNote, completeTask, createTask, listTasks, logCall } from './timeline.tools.js';
import { listDeals, listSmartLists, moveDeal, sendLeadEvent } from './leads.tools.js';
import { runReport } from './reports.tools.js';

/** Every tool, in the order tools/list shows them. */
export const TOOLS: readonly AnyTool[] = [
  searchPeople,
  getPerson,
  createPerson,
  updatePerson,
  addNote,
  logCall,
  createTask,
  listTasks,
  completeTask,
  sendLeadEvent,
  listDeals,
  moveDeal,
  listSmartLists,
  runReport,
];

export const toolNamed = new Map(TOOLS.map((tool) => [tool.name, tool]));
