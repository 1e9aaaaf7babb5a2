import { FormDataConsumer, SelectInput, TextInput, required } from 'react-admin';
import { Alert, Divider } from '@mui/material';
import { apiFetch } from '../api/http';
import { FormDialog, useApiAction } from '../admin/kit';
import { sentence, toBody, toForm, type Automation, type FormValues } from './model';
import { TriggerFields } from './TriggerFields';
import { StepFields } from './StepFields';
import { useAutomationChoices, type AutomationChoices } from './useNames';

const STATUSES = [
  { id: 'Active', name: 'Active: runs when triggered' },
  { id: 'Inactive', name: 'Paused: starts no one' },
];
const NEW: FormValues = {
  status: 'Active',
  trigger: { type: 'tagAdded' },
  steps: [{ type: 'createTask', name: '' }],
};

/** The API names fields of `actions`; the form calls them steps. */
function asFormErrors(errors: Record<string, string> | undefined) {
  if (!errors) return undefined;
  return Object.fromEntries(
    Object.entries(errors).map(([field, message]) => [
      field.replace(/^actions\./, 'steps.'),
      message,
    ]),
  );
}

function bodyOf(values: FormValues, c: AutomationChoices) {
  const body = toBody(values);
  if (body.trigger.type === 'dealStageChanged')
    body.trigger.pipelineId = c.dealStages.find((s) => s.id === body.trigger.stageId)?.pipelineId;
  return body;
}

/** The sentence the form makes so far, read as it is built. */
function Preview({ c }: { c: AutomationChoices }) {
  return (
    <FormDataConsumer<FormValues>>
      {({ formData }) => {
        const body = bodyOf(formData, c);
        if (!body.trigger.type || body.actions.length === 0) return null;
        return (
          <Alert
            severity="info"
            icon={false}
            role="status"
            aria-label="What it does"
            sx={{ mt: 1 }}
          >
            {sentence(body, c.name)}
          </Alert>
        );
      }}
    </FormDataConsumer>
  );
}

/** Create or edit an automation: a name, "When …", "Only if …", "Then …" — forms, not JSON. */
export function AutomationDialog({
  automation,
  onClose,
}: {
  automation: Automation | null;
  onClose: () => void;
}) {
  const act = useApiAction(['automations']);
  const c = useAutomationChoices();
  return (
    <FormDialog
      resource="automations"
      maxWidth="md"
      title={automation ? `Edit automation ${automation.name}` : 'New automation'}
      record={automation ? { id: automation.id, ...toForm(automation) } : NEW}
      onClose={onClose}
      onSubmit={async (values) => {
        const body = bodyOf(values as FormValues, c);
        const outcome = await act(
          () =>
            automation
              ? apiFetch(`/v1/automations/${automation.id}`, { method: 'PUT', body })
              : apiFetch('/v1/automations', { method: 'POST', body }),
          `Automation ${body.name ?? ''} saved`,
        );
        return { ok: outcome.ok, errors: asFormErrors(outcome.errors) };
      }}
    >
      <TextInput
        source="name"
        label="Automation name"
        validate={required('Give the automation a name')}
        fullWidth
      />
      <SelectInput source="status" label="Status" choices={STATUSES} helperText={false} />
      <Divider sx={{ my: 2 }} />
      <TriggerFields c={c} />
      <StepFields c={c} />
      <Preview c={c} />
    </FormDialog>
  );
}
