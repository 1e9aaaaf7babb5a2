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
  children,
}: {
  label: string;
  path: string;
  toBody: (f: Fields) => unknown;
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

export function QuickActions({ person }: { person: Person }) {
  const [tab, setTab] = useState(0);
  const me = currentSession()?.user.id;
  const plans = useQuery({
    queryKey: ['actionPlans', 'Active'],
    queryFn: () =>
      fetchAll<{ id: number; name: string }>('/v1/actionPlans?status=Active&limit=100'),
    enabled: tab === 4,
  });
  const hidden = <input type="hidden" name="personId" value={person.id} />;
  const tabs = ['Note', 'Call', 'Task', 'Appointment', 'Action plan'];
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
      >
        {tabs.map((name) => (
          <Tab key={name} label={name} id={`qa-tab-${name}`} />
        ))}
      </Tabs>
      {tab === 0 ? (
        <ActionForm
          label="Add note"
          path="/v1/notes"
          toBody={(f) => ({ personId: Number(f.personId), body: f.body })}
        >
          {hidden}
          <TextField name="body" label="Note" multiline minRows={3} required fullWidth />
        </ActionForm>
      ) : null}
      {tab === 1 ? (
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
      {tab === 2 ? (
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
      {tab === 3 ? (
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
      {tab === 4 ? (
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
