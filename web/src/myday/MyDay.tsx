import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { Link } from 'react-router-dom';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Grid,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Paper,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchPage } from '../api/lists';
import { usePeopleNames } from '../api/people';
import { QueryState } from '../layout/QueryState';
import { currentSession } from '../api/session';
import { PageHeading } from '../layout/PageHeading';
import { day, when } from '../person/format';
import { TeamDay } from './TeamDay';
import type { Appointment as ApiAppointment, Notification, Task as ApiTask } from '../api/types';

type Task = Pick<ApiTask, 'id' | 'personId' | 'name' | 'type' | 'dueDate' | 'isCompleted'>;
type Appointment = Pick<ApiAppointment, 'id' | 'title' | 'start' | 'location' | 'invitees'>;
type Notice = Pick<Notification, 'id' | 'title' | 'message' | 'personId' | 'created' | 'read'>;

const DUE = [
  { due: 'overdue', title: 'Overdue' },
  { due: 'today', title: 'Today' },
  { due: 'upcoming', title: 'Upcoming' },
] as const;

function Panel({
  title,
  count,
  children,
}: {
  title: string;
  count?: number;
  children: React.ReactNode;
}) {
  const id = `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: 2, height: '100%' }}
    >
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
        {count !== undefined ? (
          <Typography component="span" color="text.secondary">
            {' '}
            ({count})
          </Typography>
        ) : null}
      </Typography>
      {children}
    </Paper>
  );
}

function TaskList({ due, title }: { due: string; title: string }) {
  const me = currentSession()?.user.id;
  const queryClient = useQueryClient();
  const notify = useNotify();
  const query = useQuery({
    queryKey: ['myTasks', due],
    queryFn: () =>
      fetchPage<Task>(
        `/v1/tasks?assignedUserId=${me}&isCompleted=false&due=${due}&limit=100&sort=dueDate`,
      ),
  });
  const { data } = query;
  const names = usePeopleNames((data?.items ?? []).map((t) => t.personId));
  async function complete(task: Task) {
    try {
      await apiFetch(`/v1/tasks/${task.id}`, { method: 'PUT', body: { isCompleted: true } });
      await queryClient.invalidateQueries({ queryKey: ['myTasks'] });
      notify(`Done: ${task.name}`, { type: 'success' });
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    }
  }
  const tasks = data?.items ?? [];
  return (
    <Panel title={title} count={data?.total}>
      <QueryState query={query} what="tasks" empty="Nothing here." isEmpty={tasks.length === 0} />
      <List dense disablePadding>
        {tasks.map((task) => (
          <ListItem key={task.id} disableGutters>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <Checkbox
                edge="start"
                onChange={() => complete(task)}
                slotProps={{ input: { 'aria-label': `Complete ${task.name}` } }}
              />
            </ListItemIcon>
            <ListItemText
              primary={task.name}
              secondary={
                <>
                  {[task.type, day(task.dueDate)].filter(Boolean).join(' · ')}
                  {task.personId ? (
                    <>
                      {' · '}
                      <Link to={`/people/${task.personId}`}>
                        {names.get(task.personId) ?? 'person'}
                      </Link>
                    </>
                  ) : null}
                </>
              }
            />
          </ListItem>
        ))}
      </List>
    </Panel>
  );
}

function Appointments() {
  const me = currentSession()?.user.id;
  const from = new Date();
  from.setHours(0, 0, 0, 0);
  const to = new Date(from.getTime() + 7 * 86_400_000);
  const query = useQuery({
    queryKey: ['myAppointments', from.toISOString()],
    queryFn: () =>
      fetchPage<Appointment>(
        `/v1/appointments?userId=${me}&startAfter=${from.toISOString()}&startBefore=${to.toISOString()}&limit=100&sort=start`,
      ),
  });
  const items = [...(query.data?.items ?? [])].sort((a, b) => a.start.localeCompare(b.start));
  return (
    <Panel title="Appointments this week" count={items.length}>
      <QueryState
        query={query}
        what="appointments"
        empty="No appointments."
        isEmpty={items.length === 0}
      />
      <List dense disablePadding>
        {items.map((a) => {
          const person = a.invitees.find((i) => i.personId);
          return (
            <ListItem key={a.id} disableGutters>
              <ListItemText
                primary={a.title}
                secondary={
                  <>
                    {[when(a.start), a.location].filter(Boolean).join(' · ')}
                    {person ? (
                      <>
                        {' · '}
                        <Link to={`/people/${person.personId}`}>{person.name}</Link>
                      </>
                    ) : null}
                  </>
                }
              />
            </ListItem>
          );
        })}
      </List>
    </Panel>
  );
}

function NewLeads() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['notifications'],
    queryFn: () => fetchPage<Notice>('/v1/notifications?unread=true&limit=50'),
  });
  async function markAllRead() {
    await apiFetch('/v1/notifications/markAllRead', { method: 'POST', body: {} });
    await queryClient.invalidateQueries({ queryKey: ['notifications'] });
  }
  const { data } = query;
  const items = data?.items ?? [];
  return (
    <Panel title="New leads" count={data?.total}>
      <QueryState
        query={query}
        what="new leads"
        empty="No new leads."
        isEmpty={items.length === 0}
      />
      <List dense disablePadding>
        {items.map((n) => (
          <ListItem key={n.id} disableGutters>
            <ListItemIcon sx={{ minWidth: 24 }}>
              <Badge color="primary" variant="dot" />
            </ListItemIcon>
            <ListItemText
              primary={n.personId ? <Link to={`/people/${n.personId}`}>{n.title}</Link> : n.title}
              secondary={[n.message, when(n.created)].filter(Boolean).join(' · ')}
            />
          </ListItem>
        ))}
      </List>
      {items.length ? (
        <Box sx={{ mt: 1 }}>
          <Button size="small" onClick={markAllRead}>
            Mark all read
          </Button>
        </Box>
      ) : null}
    </Panel>
  );
}

/**
 * /my-day: the signed-in user's tasks (complete with one click), appointments and new leads; a
 * team leader's team first.
 */
export function MyDay() {
  return (
    <>
      <PageHeading>My day</PageHeading>
      <Box sx={{ mb: 2, '&:empty': { display: 'none' } }}>
        <TeamDay />
      </Box>
      <Grid container spacing={2}>
        {DUE.map(({ due, title }) => (
          <Grid key={due} size={{ xs: 12, md: 4 }}>
            <TaskList due={due} title={title} />
          </Grid>
        ))}
        <Grid size={{ xs: 12, md: 6 }}>
          <Appointments />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <NewLeads />
        </Grid>
      </Grid>
    </>
  );
}
