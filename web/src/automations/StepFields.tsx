import {
  ArrayInput,
  FormDataConsumer,
  NumberInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  minValue,
  required,
  useSimpleFormIterator,
} from 'react-admin';
import { Button, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { ACTIONS, ASSIGN_TO, WAIT_UNITS, type StepValues } from './model';
import type { AutomationChoices } from './useNames';

const inline = { helperText: false, fullWidth: false } as const;
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

/** The fields of one step, by its kind. */
function StepDetail({ step, c }: { step: StepValues | undefined; c: AutomationChoices }) {
  switch (step?.type) {
    case 'wait':
      return (
        <>
          <NumberInput
            source="amount"
            label="For"
            min={1}
            validate={[required('How long to wait'), minValue(1, 'At least 1')]}
            {...inline}
            sx={{ width: 110 }}
          />
          <SelectInput
            source="unit"
            label="Unit"
            choices={WAIT_UNITS}
            validate={required('Choose minutes, hours or days')}
            {...inline}
            sx={{ minWidth: 120 }}
          />
        </>
      );
    case 'addTag':
    case 'removeTag':
      return <TextInput source="tag" label="Tag" validate={required('Name the tag')} {...inline} />;
    case 'changeStage':
      return (
        <SelectInput
          source="stage"
          label="Stage"
          choices={c.stages}
          optionValue="name"
          validate={required('Choose the stage')}
          {...inline}
          sx={{ minWidth: 180 }}
        />
      );
    case 'assign': {
      const target = step.assignTo ?? 'user';
      const key = target === 'group' ? 'groupId' : target === 'pond' ? 'pondId' : 'userId';
      const choices = target === 'group' ? c.groups : target === 'pond' ? c.ponds : c.users;
      return (
        <>
          <SelectInput
            source="assignTo"
            label="To"
            choices={ASSIGN_TO}
            validate={required('Choose a user, group or pond')}
            {...inline}
            sx={{ minWidth: 150 }}
          />
          <SelectInput
            source={key}
            label={target === 'group' ? 'Group' : target === 'pond' ? 'Pond' : 'User'}
            choices={choices}
            validate={required(`Choose the ${target}`)}
            {...inline}
            sx={{ minWidth: 180 }}
          />
        </>
      );
    }
    case 'createTask':
      return (
        <>
          <TextInput
            source="name"
            label="Task"
            validate={required('Say what the task is')}
            {...inline}
            sx={{ flex: 1, minWidth: 200 }}
          />
          <SelectInput
            source="taskType"
            label="Task type"
            choices={TASK_TYPES}
            {...inline}
            sx={{ minWidth: 140 }}
          />
          <NumberInput
            source="dueInDays"
            label="Due in days"
            min={0}
            validate={minValue(0, 'At least 0 days')}
            {...inline}
            sx={{ width: 130 }}
          />
        </>
      );
    case 'sendEmail':
      return (
        <SelectInput
          source="templateId"
          label="Email template"
          choices={c.templates}
          validate={required('Choose the template')}
          {...inline}
          sx={{ minWidth: 220 }}
        />
      );
    case 'startActionPlan':
      return (
        <SelectInput
          source="actionPlanId"
          label="Action plan"
          choices={c.actionPlans}
          validate={required('Choose the action plan')}
          {...inline}
          sx={{ minWidth: 220 }}
        />
      );
    case 'notify':
      return (
        <>
          <TextInput
            source="message"
            label="Message"
            validate={required('Write the message')}
            {...inline}
            sx={{ flex: 1, minWidth: 220 }}
          />
          <SelectInput
            source="userId"
            label="Who"
            choices={c.users}
            emptyText="The assigned agent"
            {...inline}
            sx={{ minWidth: 180 }}
          />
        </>
      );
    case 'webhook':
      return (
        <TextInput
          source="url"
          label="Webhook URL (https)"
          validate={required('Give the address to call')}
          {...inline}
          sx={{ flex: 1, minWidth: 240 }}
        />
      );
    default:
      return null;
  }
}

function AddStepButton() {
  const { add } = useSimpleFormIterator();
  return (
    <Button size="small" startIcon={<AddIcon />} onClick={() => add({ type: 'createTask' })}>
      Add step
    </Button>
  );
}

/** "Then": the steps in order, each a kind and its fields; reorder and remove stay in view. */
export function StepFields({ c }: { c: AutomationChoices }) {
  return (
    <ArrayInput source="steps" label="Then, in order">
      <SimpleFormIterator
        disableClear
        fullWidth
        addButton={<AddStepButton />}
        sx={{ '& .RaSimpleFormIterator-action': { visibility: 'visible' } }}
      >
        <FormDataConsumer<{ steps?: StepValues[] }>>
          {({ scopedFormData }) => (
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              useFlexGap
              sx={{ flexWrap: 'wrap', gap: 1, py: 0.5, alignItems: { sm: 'flex-start' } }}
            >
              <SelectInput
                source="type"
                label="Step"
                choices={ACTIONS}
                validate={required('Choose what this step does')}
                {...inline}
                sx={{ minWidth: 210 }}
              />
              <StepDetail step={scopedFormData as StepValues | undefined} c={c} />
            </Stack>
          )}
        </FormDataConsumer>
      </SimpleFormIterator>
    </ArrayInput>
  );
}
