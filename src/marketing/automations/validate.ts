import type { Config } from '../../platform/config.js';
import type { DbOrTrx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { stageIdNamed } from '../../contacts/people/people.repo.js';
import { findTemplateInAccount } from '../templates/templates.repo.js';
import { findPlan } from '../actionPlans/actionPlans.repo.js';
import { validateCallbackUrl } from '../../accounts/webhooks/callback-url.js';
import type { ActionInput, TriggerInput } from './automations.schemas.js';

type Table = 'users' | 'user_groups' | 'ponds' | 'pipelines';

async function existsIn(db: DbOrTrx, table: Table, accountId: number, id: number) {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

function refuse(field: string, message: string): never {
  throw badRequest(`${field}: ${message}`, [{ field, message }]);
}

async function checkStage(db: DbOrTrx, accountId: number, field: string, name: string) {
  if ((await stageIdNamed(db, accountId, name)) === null)
    refuse(field, `no stage named '${name}' in this account`);
}

async function checkId(db: DbOrTrx, table: Table, accountId: number, field: string, id: number) {
  if (!(await existsIn(db, table, accountId, id))) refuse(field, `no such record ${id} here`);
}

/** Every name and id a trigger refers to exists in the account (400 naming the field otherwise). */
export async function checkTrigger(db: DbOrTrx, accountId: number, trigger: TriggerInput) {
  if (trigger.type === 'stageChanged')
    await checkStage(db, accountId, 'trigger.stage', trigger.stage);
  if (trigger.type === 'dealStageChanged') {
    await checkId(db, 'pipelines', accountId, 'trigger.pipelineId', trigger.pipelineId);
    const stage = await db
      .selectFrom('pipeline_stages')
      .select('id')
      .where('account_id', '=', accountId)
      .where('pipeline_id', '=', trigger.pipelineId)
      .where('id', '=', trigger.stageId)
      .executeTakeFirst();
    if (!stage) refuse('trigger.stageId', `not a stage of pipeline ${trigger.pipelineId}`);
  }
  const conditions = trigger.conditions;
  if (conditions?.stage !== undefined)
    await checkStage(db, accountId, 'trigger.conditions.stage', conditions.stage);
  if (conditions?.assignedUserId !== undefined)
    await checkId(
      db,
      'users',
      accountId,
      'trigger.conditions.assignedUserId',
      conditions.assignedUserId,
    );
}

async function checkAction(
  db: DbOrTrx,
  config: Pick<Config, 'webhookAllowPrivate'>,
  accountId: number,
  action: ActionInput,
  field: string,
): Promise<ActionInput> {
  switch (action.type) {
    case 'changeStage':
      await checkStage(db, accountId, `${field}.stage`, action.stage);
      break;
    case 'assign': {
      const given = (['userId', 'groupId', 'pondId'] as const).filter(
        (k) => action[k] !== undefined,
      );
      if (given.length !== 1) refuse(field, 'give exactly one of userId, groupId or pondId');
      const table = { userId: 'users', groupId: 'user_groups', pondId: 'ponds' } as const;
      await checkId(db, table[given[0]], accountId, `${field}.${given[0]}`, action[given[0]]!);
      break;
    }
    case 'sendEmail':
      if (!(await findTemplateInAccount(db, accountId, action.templateId, 'email')))
        refuse(`${field}.templateId`, `no email template ${action.templateId} here`);
      break;
    case 'startActionPlan':
      if (!(await findPlan(db, accountId, action.actionPlanId)))
        refuse(`${field}.actionPlanId`, `no action plan ${action.actionPlanId} here`);
      break;
    case 'notify':
      if (action.userId !== undefined)
        await checkId(db, 'users', accountId, `${field}.userId`, action.userId);
      break;
    case 'webhook':
      return {
        ...action,
        url: await validateCallbackUrl(action.url, { allowPrivate: config.webhookAllowPrivate }),
      };
  }
  return action;
}

/** Checks each action (in order) and answers them as stored (a webhook URL normalised). */
export async function checkActions(
  db: DbOrTrx,
  config: Pick<Config, 'webhookAllowPrivate'>,
  accountId: number,
  actions: ActionInput[],
): Promise<ActionInput[]> {
  const checked: ActionInput[] = [];
  for (const [i, action] of actions.entries())
    checked.push(await checkAction(db, config, accountId, action, `actions[${i}]`));
  return checked;
}
