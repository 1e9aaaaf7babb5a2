import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { insertRows } from '../../platform/db/reusable-query.js';
import { accountOwnerId } from '../../leads/leadFlows/leadFlows.service.js';
import { responsibleAgentId } from '../../contacts/people/assignment.js';
import { insertTask } from '../../timeline/tasks/tasks.repo.js';
import { findTemplateInAccount } from '../templates/templates.repo.js';
import { logTemplateEmail } from '../templates/template-email.js';
import { startOnPlan } from '../actionPlans/actionPlans.service.js';
import { badRequest } from '../../platform/http/errors.js';
import { findPlan } from '../actionPlans/actionPlans.repo.js';
import type { WebhookSender } from '../../accounts/webhooks/sender.js';
import { isoSeconds } from '../../platform/time.js';
import type { ActionInput } from './automations.schemas.js';
import type { RunRow } from './automations.repo.js';
import { changePerson } from './person-actions.js';

const DAY_MS = 86_400_000;

/** The person's agent (or their pond's lead agent), else the account's owner. */
async function agentOf(trx: Trx, run: RunRow): Promise<number | null> {
  const person = await trx
    .selectFrom('people')
    .select(['assigned_user_id', 'assigned_pond_id'])
    .where('account_id', '=', run.account_id)
    .where('id', '=', run.person_id)
    .executeTakeFirst();
  if (!person) return null;
  const agent = await responsibleAgentId(trx, run.account_id, {
    assignedUserId: person.assigned_user_id,
    assignedPondId: person.assigned_pond_id,
  });
  return agent ?? (await accountOwnerId(trx, run.account_id));
}

async function notify(trx: Trx, run: RunRow, message: string, userId: number | null, at: string) {
  if (userId === null) return;
  await insertRows(trx, 'notifications', [
    {
      account_id: run.account_id,
      user_id: userId,
      person_id: run.person_id,
      event_id: null,
      kind: 'automation',
      title: message.slice(0, 200),
      message,
      read_at: null,
      created_at: at,
    },
  ]);
}

/**
 * Carries out one action other than `wait` and `webhook` in the caller's transaction, which also
 * records the step as done: it happens once, whatever crashes or retries come.
 */
export async function carryOutAction(
  ctx: AppContext,
  trx: Trx,
  run: RunRow,
  action: Exclude<ActionInput, { type: 'wait' | 'webhook' }>,
): Promise<void> {
  const nowMs = ctx.clock.now();
  const at = isoSeconds(nowMs);
  const accountId = run.account_id;
  switch (action.type) {
    case 'addTag':
    case 'removeTag':
    case 'changeStage':
    case 'assign':
      return changePerson(trx, run, action, nowMs);
    case 'createTask':
      await insertTask(trx, accountId, {
        personId: run.person_id,
        name: action.name,
        type: action.taskType ?? 'Follow Up',
        assignedUserId: await agentOf(trx, run),
        dueDate: isoSeconds(nowMs + (action.dueInDays ?? 0) * DAY_MS).slice(0, 10),
        now: nowMs,
      });
      return;
    case 'sendEmail': {
      const template = await findTemplateInAccount(trx, accountId, action.templateId, 'email');
      if (!template) throw badRequest(`Email template ${action.templateId} is gone`);
      const agentId = await agentOf(trx, run);
      await logTemplateEmail(
        trx,
        accountId,
        run.person_id,
        template,
        agentId,
        'Hearth automations',
        nowMs,
      );
      return;
    }
    case 'startActionPlan':
      if (!(await findPlan(trx, accountId, action.actionPlanId)))
        throw badRequest(`Action plan ${action.actionPlanId} is gone`);
      await startOnPlan(trx, accountId, run.person_id, action.actionPlanId, at, null);
      return;
    case 'notify':
      return notify(trx, run, action.message, action.userId ?? (await agentOf(trx, run)), at);
  }
}

/**
 * POSTs the run to a `webhook` action's URL (through the webhook sender: SSRF guard, time limit).
 * Outside any transaction, so a crash between the answer and the step's commit sends it again:
 * `Hearth-Automation-Step` is the same on every try, for the receiver to drop a repeat.
 */
export async function callWebhook(
  ctx: AppContext,
  sender: WebhookSender,
  run: RunRow,
  url: string,
): Promise<void> {
  const body = JSON.stringify({
    event: 'automationStep',
    automationId: run.automation_id,
    automationPersonId: run.id,
    personId: run.person_id,
    step: run.step,
    uri: `${ctx.config.publicUrl}/v1/people/${run.person_id}`,
  });
  const result = await sender.send(url, body, {
    'hearth-automation-step': `${run.id}-${run.step}`,
  });
  if (!result.success)
    throw new Error(`webhook ${url} answered ${result.statusCode ?? result.error ?? 'nothing'}`);
}
