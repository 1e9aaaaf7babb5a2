import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { Box, Button, MenuItem, Paper, Stack, Tab, Tabs, TextField } from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { currentSession } from '../api/session';
import { timelineKey } from './Timeline';
import type { Person as ApiPerson } from '../api/types';

const CALL_OUTCOMES = [
  'Interested',
  'Not Interested',
  'Left Message',
  'No Answer',
  'Busy',
  'Bad Number',
];
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
];

type Person = Pick<ApiPerson, 'id' | 'phones'>;

type Fields = Record<string, string>;

function localInput(offsetHours: number): string {
  const date = new Date(Date.now() + offsetHours * 3_600_000);
  date.setMinutes(0, 0, 0);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** One small form per action: it posts, clears itself and refreshes the timeline. */
function ActionForm({
  label,
  toBody,
  path,
  onDone,
  children,
}: {
  label: string;
  path: string;
  toBody: (f: Fields) => unknown;
  /** clears what the form's own state holds (a reset clears only its uncontrolled fields) */
  onDone?: () => void;
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = Object.fromEntries(
      [...new FormData(form).entries()].map(([k, v]) => [k, String(v)]),
    );
    setBusy(true);
    try {
      const personId = Number(fields.personId);
      await apiFetch(path, { method: 'POST', body: toBody(fields) });
      form.reset();
      onDone?.();
      await queryClient.invalidateQueries({ queryKey: timelineKey(personId) });
      notify(`${label}: done`, { type: 'success' });
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Box component="form" onSubmit={submit} sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        {children}
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            {label}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

const minutesToSeconds = (value: string) => (value ? Math.round(Number(value) * 60) : undefined);

/** Phone and direction, as a call and a text both ask. */
function PhoneAndDirection({ person }: { person: Person }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
      <TextField
        name="phone"
        label="Phone"
        defaultValue={person.phones?.[0]?.value ?? ''}
        fullWidth
      />
      <TextField name="direction" label="Direction" select defaultValue="out" fullWidth>
        <MenuItem value="out">Outgoing</MenuItem>
        <MenuItem value="in">Incoming</MenuItem>
      </TextField>
    </Stack>
  );
}

/**
 * Logs a text message (Hearth sends no SMS: the agent texts from their phone). A text template,
 * yours or a shared one, fills the message with its merge fields for this person.
 */
function TextForm({ person, hidden }: { person: Person; hidden: ReactNode }) {
  const notify = useNotify();
  const [message, setMessage] = useState('');
  const [templateId, setTemplateId] = useState('');
  const templates = useQuery({
    queryKey: ['textMessageTemplates'],
    queryFn: () =>
      fetchAll<{ id: number; name: string }>('/v1/textMessageTemplates?sort=name&limit=100'),
  });
  async function fillFrom(id: string) {
    setTemplateId(id);
    try {
      const { json } = await apiFetch('/v1/textMessageTemplates/merge', {
        method: 'POST',
        body: { templateId: Number(id), personId: person.id },
      });
      setMessage((json as { mergedTemplate: string }).mergedTemplate);
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    }
  }
  return (
    <ActionForm
      label="Log text"
      path="/v1/textMessages"
      onDone={() => {
        setMessage('');
        setTemplateId('');
      }}
      toBody={(f) => ({
        personId: Number(f.personId),
        message: f.message,
        toNumber: f.phone || undefined,
        isIncoming: f.direction === 'in',
      })}
    >
      {hidden}
      <PhoneAndDirection person={person} />
      {templates.data?.length ? (
        <TextField
          label="Template"
          select
          value={templateId}
          onChange={(e) => void fillFrom(e.target.value)}
          helperText="Fills the message with the template, merged for this person"
          fullWidth
        >
          {templates.data.map((template) => (
            <MenuItem key={template.id} value={String(template.id)}>
              {template.name}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      <TextField
        name="message"
        label="Message"
        multiline
        minRows={3}
        required
        fullWidth
        value={message}
        onChange={(e) => setMessage(e.target.value)}
      />
    </ActionForm>
  );
}

export function QuickActions({ person }: { person: Person }) {
  const [tab, setTab] = useState('Note');
  const me = currentSession()?.user.id;
  const plans = useQuery({
    queryKey: ['actionPlans', 'Active'],
    queryFn: () =>
      fetchAll<{ id: number; name: string }>('/v1/actionPlans?status=Active&limit=100'),
    enabled: tab === 'Action plan',
  });
  const hidden = <input type="hidden" name="personId" value={person.id} />;
  const tabs = ['Note', 'Call', 'Text', 'Task', 'Appointment', 'Action plan'];
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label="Quick actions"
      sx={{ overflow: 'hidden' }}
    >
      <Tabs
        value={tab}
        onChange={(_e, value) => setTab(value)}
        variant="scrollable"
        allowScrollButtonsMobile
        // A phone shows three of the six tabs: the arrow at the start stays visible, faded, while
        // there is nothing before, rather than leaving a blank space (MUI hides it by default).
        sx={{ '& .MuiTabs-scrollButtons.Mui-disabled': { opacity: 0.3 } }}
      >
        {tabs.map((name) => (
          <Tab key={name} label={name} value={name} id={`qa-tab-${name}`} />
        ))}
      </Tabs>
      {tab === 'Note' ? (
        <ActionForm
          label="Add note"
          path="/v1/notes"
          toBody={(f) => ({ personId: Number(f.personId), body: f.body })}
        >
          {hidden}
          <TextField name="body" label="Note" multiline minRows={3} required fullWidth />
        </ActionForm>
      ) : null}
      {tab === 'Call' ? (
        <ActionForm
          label="Log call"
          path="/v1/calls"
          toBody={(f) => ({
            personId: Number(f.personId),
            phone: f.phone || undefined,
            isIncoming: f.direction === 'in',
            outcome: f.outcome || null,
            duration: minutesToSeconds(f.minutes),
            note: f.note || undefined,
          })}
        >
          {hidden}
          <PhoneAndDirection person={person} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField name="outcome" label="Outcome" select defaultValue="Interested" fullWidth>
              {CALL_OUTCOMES.map((o) => (
                <MenuItem key={o} value={o}>
                  {o}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              name="minutes"
              label="Minutes"
              type="number"
              slotProps={{ htmlInput: { min: 0, step: 0.5 } }}
              fullWidth
            />
          </Stack>
          <TextField name="note" label="Call note" multiline minRows={2} fullWidth />
        </ActionForm>
      ) : null}
      {tab === 'Text' ? <TextForm person={person} hidden={hidden} /> : null}
      {tab === 'Task' ? (
        <ActionForm
          label="Add task"
          path="/v1/tasks"
          toBody={(f) => ({
            personId: Number(f.personId),
            name: f.name,
            type: f.type,
            dueDate: f.dueDate || null,
            assignedUserId: me,
          })}
        >
          {hidden}
          <TextField name="name" label="Task" required fullWidth />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField name="type" label="Type" select defaultValue="Follow Up" fullWidth>
              {TASK_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {t}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              name="dueDate"
              label="Due"
              type="date"
              defaultValue={localInput(24).slice(0, 10)}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
        </ActionForm>
      ) : null}
      {tab === 'Appointment' ? (
        <ActionForm
          label="Schedule"
          path="/v1/appointments"
          toBody={(f) => {
            const start = new Date(f.start);
            const end = new Date(start.getTime() + Number(f.duration || 60) * 60_000);
            return {
              title: f.title,
              start: start.toISOString(),
              end: end.toISOString(),
              location: f.location || undefined,
              invitees: [{ personId: Number(f.personId) }, ...(me ? [{ userId: me }] : [])],
            };
          }}
        >
          {hidden}
          <TextField name="title" label="Title" required fullWidth defaultValue="Meeting" />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField
              name="start"
              label="Starts"
              type="datetime-local"
              required
              defaultValue={localInput(24)}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField name="duration" label="Minutes" type="number" defaultValue="60" fullWidth />
          </Stack>
          <TextField name="location" label="Location" fullWidth />
        </ActionForm>
      ) : null}
      {tab === 'Action plan' ? (
        <ActionForm
          label="Start plan"
          path="/v1/actionPlansPeople"
          toBody={(f) => ({ personId: Number(f.personId), actionPlanId: Number(f.actionPlanId) })}
        >
          {hidden}
          <TextField
            name="actionPlanId"
            label="Action plan"
            select
            required
            fullWidth
            defaultValue=""
          >
            {(plans.data ?? []).map((plan) => (
              <MenuItem key={plan.id} value={plan.id}>
                {plan.name}
              </MenuItem>
            ))}
          </TextField>
        </ActionForm>
      ) : null}
    </Paper>
  );
}
