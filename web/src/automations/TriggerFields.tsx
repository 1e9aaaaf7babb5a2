import {
  FormDataConsumer,
  NumberInput,
  SelectInput,
  TextInput,
  minValue,
  required,
} from 'react-admin';
import { Box, Stack, Typography } from '@mui/material';
import { TRIGGERS, type FormValues } from './model';
import type { AutomationChoices } from './useNames';

const inline = { helperText: false, fullWidth: false } as const;

/** The "When …" part: which change starts the automation, and what it names. */
function TriggerDetail({ c, values }: { c: AutomationChoices; values: FormValues }) {
  const trigger = values.trigger;
  switch (trigger?.type) {
    case 'personCreated':
      return (
        <>
          <TextInput
            source="trigger.sourcesText"
            label="From the sources (empty: any)"
            placeholder="Zillow, Website"
            {...inline}
            sx={{ flex: 1, minWidth: 220 }}
          />
          <TextInput
            source="trigger.eventTypesText"
            label="By the lead events (empty: any)"
            placeholder="Registration, Inquiry"
            {...inline}
            sx={{ flex: 1, minWidth: 220 }}
          />
        </>
      );
    case 'tagAdded':
      return (
        <TextInput
          source="trigger.tag"
          label="Tag"
          validate={required('Name the tag')}
          {...inline}
          sx={{ minWidth: 200 }}
        />
      );
    case 'stageChanged':
      return (
        <SelectInput
          source="trigger.stage"
          label="Stage"
          choices={c.stages}
          optionValue="name"
          validate={required('Choose the stage')}
          {...inline}
          sx={{ minWidth: 200 }}
        />
      );
    case 'dealStageChanged':
      return (
        <SelectInput
          source="trigger.stageId"
          label="Deal stage"
          choices={c.dealStages}
          validate={required('Choose the deal stage')}
          {...inline}
          sx={{ minWidth: 240 }}
        />
      );
    case 'dateReached':
      return (
        <NumberInput
          source="trigger.offsetDays"
          label="Days after created"
          min={0}
          validate={[required('Give a number of days'), minValue(0, 'At least 0 days')]}
          {...inline}
          sx={{ width: 180 }}
        />
      );
    case 'noContact':
      return (
        <NumberInput
          source="trigger.days"
          label="Days without contact"
          min={1}
          validate={[required('Give a number of days'), minValue(1, 'At least 1 day')]}
          {...inline}
          sx={{ width: 200 }}
        />
      );
    default:
      return null;
  }
}

/** "When" and "Only if": the trigger and its conditions, each a field in words. */
export function TriggerFields({ c }: { c: AutomationChoices }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600 }}>
        When
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
        <SelectInput
          source="trigger.type"
          label="Trigger"
          choices={TRIGGERS}
          validate={required('Choose what starts the automation')}
          {...inline}
          sx={{ minWidth: 260 }}
        />
        <FormDataConsumer<FormValues>>
          {({ formData }) => <TriggerDetail c={c} values={formData} />}
        </FormDataConsumer>
      </Stack>
      <Typography variant="subtitle2" sx={{ mt: 1, color: 'text.secondary' }}>
        Only if (leave empty for everyone)
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
        <SelectInput
          source="trigger.conditions.stage"
          label="The stage is"
          choices={c.stages}
          optionValue="name"
          emptyText="Any stage"
          {...inline}
          sx={{ minWidth: 180 }}
        />
        <TextInput
          source="trigger.conditions.source"
          label="The source is"
          {...inline}
          sx={{ minWidth: 180 }}
        />
        <TextInput
          source="trigger.tagsText"
          label="Has the tags"
          placeholder="hot, buyer"
          {...inline}
          sx={{ minWidth: 240 }}
        />
        <SelectInput
          source="trigger.conditions.assignedUserId"
          label="Assigned to"
          choices={c.users}
          emptyText="Anyone"
          {...inline}
          sx={{ minWidth: 180 }}
        />
      </Stack>
    </Box>
  );
}
