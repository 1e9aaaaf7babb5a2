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
import { currentSession } from '../api/session';
import { PageHeading } from '../layout/PageHeading';
import { day, when } from '../person/format';

interface Task {
  id: number;
  personId: number;
  name: string;
  type: string;
  dueDate: string | null;
  isCompleted: boolean;
}
interface Appointment {
  id: number;
  title: string;
  start: string;
  location: string;
  invitees: { personId?: number; name: string }[];
}
interface Notice {
  id: number;
  title: string;
  message: string;
  personId: number | null;
  created: string;
  read: boolean;
}

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
  const { data } = useQuery({
    queryKey: ['myTasks', due],
    queryFn: () =>
      fetchPage<Task>(
        `/v1/tasks?assignedUserId=${me}&isCompleted=false&due=${due}&limit=100&sort=dueDate`,
      ),
  });
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
      {tasks.length === 0 ? <Typography color="text.secondary">Nothing here.</Typography> : null}
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
  const { data } = useQuery({
    queryKey: ['myAppointments', from.toISOString()],
    queryFn: () =>
      fetchPage<Appointment>(
        `/v1/appointments?userId=${me}&startAfter=${from.toISOString()}&startBefore=${to.toISOString()}&limit=100&sort=start`,
      ),
  });
  const items = [...(data?.items ?? [])].sort((a, b) => a.start.localeCompare(b.start));
  return (
    <Panel title="Appointments this week" count={items.length}>
      {items.length === 0 ? <Typography color="text.secondary">No appointments.</Typography> : null}
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
  const { data } = useQuery({
    queryKey: ['notifications'],
    queryFn: () => fetchPage<Notice>('/v1/notifications?unread=true&limit=50'),
  });
  async function markAllRead() {
    await apiFetch('/v1/notifications/markAllRead', { method: 'POST', body: {} });
    await queryClient.invalidateQueries({ queryKey: ['notifications'] });
  }
  const items = data?.items ?? [];
  return (
    <Panel title="New leads" count={data?.total}>
      {items.length === 0 ? <Typography color="text.secondary">No new leads.</Typography> : null}
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

/** /my-day: the signed-in user's tasks (complete with one click), appointments and new leads. */
export function MyDay() {
  return (
    <>
      <PageHeading>My day</PageHeading>
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
