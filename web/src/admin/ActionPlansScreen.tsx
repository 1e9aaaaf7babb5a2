import { useState } from 'react';
import {
  ArrayInput,
  DataTable,
  FormDataConsumer,
  NumberInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  required,
  useGetList,
  useSimpleFormIterator,
  type RaRecord,
} from 'react-admin';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDelete } from './ConfirmDelete';
import { FormDialog, RowActions, WHOLE_LIST, useApiAction } from './kit';
import { RecordTable } from './RecordTable';
import { ScreenIntro } from './ScreenIntro';
import type { ActionPlan, ActionPlanStep } from '../api/types';

const TASK_TYPES = [
  'Follow Up',
  'Call',
  'Email',
  'Text',
  'Appointment',
  'Showing',
  'Closing',
  'Open House',
  'Thank You',
].map((name) => ({ id: name, name }));
const KINDS = [
  { id: 'task', name: 'Task for the agent' },
  { id: 'email', name: 'Email from a template' },
  { id: 'text', name: 'Text from a template' },
];
const STATUSES = [
  { id: 'Active', name: 'Active' },
  { id: 'Inactive', name: 'Inactive' },
];

/** A step as the form holds it: a saved step, or a new one without an id yet. */
type Step = Pick<ActionPlanStep, 'kind' | 'delayDays'> &
  Partial<Pick<ActionPlanStep, 'id' | 'taskType' | 'taskName' | 'templateId'>>;

/** What the API takes for a step: only the fields of its kind, in list order (no `order`). */
function stepBody(step: Step) {
  const base = { ...(step.id ? { id: step.id } : {}), delayDays: Number(step.delayDays ?? 0) };
  if (step.kind === 'task')
    return {
      ...base,
      kind: 'task',
      taskName: step.taskName ?? undefined,
      ...(step.taskType ? { taskType: step.taskType } : {}),
    };
  return { ...base, kind: step.kind, templateId: step.templateId ?? undefined };
}

function StepRow() {
  const emailTemplates = useGetList('templates', WHOLE_LIST);
  const textTemplates = useGetList('textMessageTemplates', WHOLE_LIST);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      useFlexGap
      sx={{ flexWrap: 'wrap', columnGap: 1, alignItems: { sm: 'flex-start' }, py: 0.5 }}
    >
      <NumberInput
        source="delayDays"
        label="Days after start"
        min={0}
        validate={required()}
        helperText={false}
        fullWidth={false}
        sx={{ width: { sm: 150 } }}
      />
      <SelectInput
        source="kind"
        label="Step"
        choices={KINDS}
        validate={required()}
        helperText={false}
        fullWidth={false}
        sx={{ minWidth: 210 }}
      />
      <FormDataConsumer<{ kind?: string }>>
        {({ scopedFormData }) =>
          scopedFormData?.kind === 'task' ? (
            <>
              <SelectInput
                source="taskType"
                label="Task type"
                choices={TASK_TYPES}
                helperText={false}
                fullWidth={false}
                sx={{ minWidth: 150 }}
              />
              <TextInput
                source="taskName"
                label="Task"
                validate={required()}
                helperText={false}
                fullWidth={false}
                sx={{ flex: 1, minWidth: 200 }}
              />
            </>
          ) : scopedFormData?.kind ? (
            <SelectInput
              source="templateId"
              label={scopedFormData.kind === 'email' ? 'Email template' : 'Text template'}
              choices={
                (scopedFormData.kind === 'email' ? emailTemplates.data : textTemplates.data) ?? []
              }
              validate={required()}
              helperText={false}
              fullWidth={false}
              sx={{ flex: 1, minWidth: 210 }}
            />
          ) : null
        }
      </FormDataConsumer>
    </Stack>
  );
}

function AddStepButton() {
  const { add } = useSimpleFormIterator();
  return (
    <Button
      size="small"
      startIcon={<AddIcon />}
      onClick={() => add({ delayDays: 1, kind: 'task' })}
    >
      Add step
    </Button>
  );
}

/** The steps in order; the reorder and remove buttons stay in view (not only on hover). */
function StepFields() {
  return (
    <ArrayInput source="steps" label="Steps, in order">
      <SimpleFormIterator
        disableClear
        fullWidth
        addButton={<AddStepButton />}
        sx={{ '& .RaSimpleFormIterator-action': { visibility: 'visible' } }}
      >
        <StepRow />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

function PlanDialog({ plan, onClose }: { plan: ActionPlan | null; onClose: () => void }) {
  const act = useApiAction(['actionPlans']);
  return (
    <FormDialog
      resource="actionPlans"
      maxWidth="md"
      title={plan ? `Edit action plan ${plan.name}` : 'New action plan'}
      record={
        plan ?? {
          status: 'Active',
          steps: [{ delayDays: 0, kind: 'task', taskType: 'Call', taskName: '' }],
        }
      }
      onClose={onClose}
      onSubmit={(values) => {
        const body = {
          name: values.name,
          description: values.description ?? '',
          status: values.status,
          steps: ((values.steps as Step[] | undefined) ?? []).map(stepBody),
        };
        return act(
          () =>
            plan
              ? apiFetch(`/v1/actionPlans/${plan.id}`, { method: 'PUT', body })
              : apiFetch('/v1/actionPlans', { method: 'POST', body }),
          `Action plan ${String(values.name)} saved`,
        );
      }}
    >
      <TextInput source="name" label="Plan name" validate={required()} fullWidth />
      <TextInput source="description" label="Description" multiline fullWidth />
      <SelectInput source="status" label="Status" choices={STATUSES} helperText={false} />
      <StepFields />
    </FormDialog>
  );
}

function StepsSummary({ plan }: { plan: ActionPlan }) {
  const templates = useGetList('templates', WHOLE_LIST);
  const names = new Map((templates.data ?? []).map((t) => [t.id, t.name as string]));
  if (plan.steps.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        No steps
      </Typography>
    );
  return (
    <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
      {plan.steps.map((step, index) => (
        <Typography component="li" variant="body2" key={step.id ?? index}>
          Day {step.delayDays}:{' '}
          {step.kind === 'task'
            ? `${step.taskType ?? 'Task'} — ${step.taskName ?? ''}`
            : step.kind === 'email'
              ? `email “${names.get(step.templateId ?? 0) ?? `template ${step.templateId}`}”`
              : `text (template ${step.templateId})`}
        </Typography>
      ))}
    </Box>
  );
}

/** Action plans: steps (tasks, emails, texts) that run for a person from the day the plan starts. */
export function ActionPlansScreen() {
  const [editing, setEditing] = useState<ActionPlan | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ActionPlan | null>(null);
  return (
    <>
      <PageHeading>Action plans</PageHeading>
      <ScreenIntro addLabel="New action plan" onAdd={() => setEditing('new')}>
        A plan runs its steps for a person from the day it starts: tasks for their agent, emails and
        texts from templates. Lead flows can start one for every new lead.
      </ScreenIntro>
      <RecordTable
        resource="actionPlans"
        sort={{ field: 'name', order: 'ASC' }}
        empty="No action plans yet."
        actions={(record) => (
          <RowActions
            label={`action plan ${record.name}`}
            onEdit={() => setEditing(record as ActionPlan)}
            onDelete={() => setDeleting(record as ActionPlan)}
          />
        )}
      >
        <DataTable.Col
          source="name"
          label="Plan"
          render={(record: RaRecord) => (
            <Box>
              <Typography sx={{ fontWeight: 600 }}>{record.name}</Typography>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
                <Chip
                  size="small"
                  label={record.status}
                  color={record.status === 'Active' ? 'success' : 'default'}
                  variant="outlined"
                />
                {record.description ? (
                  <Typography variant="body2" color="text.secondary">
                    {record.description}
                  </Typography>
                ) : null}
              </Stack>
            </Box>
          )}
        />
        <DataTable.Col
          source="steps"
          label="Steps"
          disableSort
          render={(record: RaRecord) => <StepsSummary plan={record as ActionPlan} />}
        />
      </RecordTable>
      {editing ? (
        <PlanDialog plan={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          title={`Delete action plan ${deleting.name}?`}
          content="People on this plan are taken off it."
          path={`/v1/actionPlans/${deleting.id}`}
          done={`${deleting.name} deleted`}
          resources={['actionPlans']}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}
