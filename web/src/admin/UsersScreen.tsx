import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  MenuItem,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDialog } from './ConfirmDialog';
import { usePhone, useQueryAction } from './kit';
import { NameCell, PHONE_CELLS } from './PhoneCells';
import { PlainTable } from './PlainTable';
import type { User, Invite as ListedInvite, NewInvite } from '../api/types';

type Invite = ListedInvite & Partial<Pick<NewInvite, 'inviteLink' | 'emailed'>>;

const ROLES = ['Owner', 'Admin', 'Agent', 'Lender'];
const USERS_KEY = ['admin', 'users'];
const INVITES_KEY = ['admin', 'invites'];
/** Everything the users screen reads, refreshed after each change. */
const ADMIN_KEY = ['admin'];

function DeactivateDialog({
  user,
  users,
  onClose,
}: {
  user: User;
  users: User[];
  onClose: () => void;
}) {
  const act = useQueryAction(ADMIN_KEY);
  const heirs = users.filter((u) => u.id !== user.id);
  const [assignTo, setAssignTo] = useState<number | ''>(heirs[0]?.id ?? '');
  return (
    <ConfirmDialog
      titleId="deactivate-title"
      title={`Deactivate ${user.name}`}
      confirm="Deactivate"
      disabled={assignTo === ''}
      onClose={onClose}
      onConfirm={async () => {
        const path = `/v1/users/${user.id}?assignTo=${assignTo}`;
        if (await act(() => apiFetch(path, { method: 'DELETE' }), `${user.name} deactivated`))
          onClose();
      }}
    >
      <Typography sx={{ mb: 2 }}>
        Their sessions, API key and application tokens stop working. Their people go to:
      </Typography>
      <TextField
        select
        fullWidth
        label="Hand their people to"
        value={assignTo}
        onChange={(event) => setAssignTo(Number(event.target.value))}
      >
        {heirs.map((u) => (
          <MenuItem key={u.id} value={u.id}>
            {u.name} ({u.role})
          </MenuItem>
        ))}
      </TextField>
    </ConfirmDialog>
  );
}

function UsersTable({ users }: { users: User[] }) {
  const act = useQueryAction(ADMIN_KEY);
  const { permissions } = usePermissions();
  const [leaving, setLeaving] = useState<User | null>(null);
  const phone = usePhone();
  const roles = permissions === 'Owner' ? ROLES : ROLES.filter((r) => r !== 'Owner');
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto', ...PHONE_CELLS }}>
      <PlainTable label="Users" columns={['Name', !phone && 'Email', 'Role', 'Actions']}>
        {users.map((user) => (
          <TableRow key={user.id}>
            <NameCell name={user.name} email={user.email} />
            {phone ? null : <TableCell>{user.email}</TableCell>}
            <TableCell>
              <TextField
                select
                size="small"
                label={`Role of ${user.name}`}
                value={user.role}
                disabled={user.role === 'Owner' && permissions !== 'Owner'}
                onChange={(event) =>
                  void act(
                    () =>
                      apiFetch(`/v1/users/${user.id}`, {
                        method: 'PUT',
                        body: { role: event.target.value },
                      }),
                    `${user.name} is now ${event.target.value}`,
                  )
                }
              >
                {(roles.includes(user.role) ? roles : [user.role, ...roles]).map((role) => (
                  <MenuItem key={role} value={role}>
                    {role}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
            <TableCell>
              <Button
                color="error"
                aria-label={`Deactivate ${user.name}`}
                onClick={() => setLeaving(user)}
              >
                Deactivate
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </PlainTable>
      {leaving ? (
        <DeactivateDialog user={leaving} users={users} onClose={() => setLeaving(null)} />
      ) : null}
    </Paper>
  );
}

function InviteForm() {
  const act = useQueryAction(ADMIN_KEY);
  const { permissions } = usePermissions();
  const [form, setForm] = useState({ email: '', name: '', role: 'Agent' });
  const [sent, setSent] = useState<Invite | null>(null);
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm({ ...form, [field]: event.target.value });
  async function send() {
    let created: Invite | null = null;
    const ok = await act(async () => {
      created = (await apiFetch('/v1/invites', { method: 'POST', body: form })).json as Invite;
    }, `Invite for ${form.email} created`);
    if (ok) {
      setSent(created);
      setForm({ email: '', name: '', role: 'Agent' });
    }
  }
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Invite someone
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          label="Email"
          type="email"
          size="small"
          value={form.email}
          onChange={set('email')}
        />
        <TextField label="Name" size="small" value={form.name} onChange={set('name')} />
        <TextField
          select
          label="Role"
          size="small"
          value={form.role}
          onChange={set('role')}
          sx={{ minWidth: 120 }}
        >
          {ROLES.filter((r) => r !== 'Owner' || permissions === 'Owner').map((role) => (
            <MenuItem key={role} value={role}>
              {role}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          onClick={() => void send()}
        >
          Send invite
        </Button>
      </Stack>
      {sent?.inviteLink ? (
        <Alert severity="info" sx={{ mt: 2 }}>
          Email is not set up, so give {sent.name} this link yourself. It is shown only now and
          works once, for 7 days.
          <TextField
            fullWidth
            size="small"
            label="Invite link"
            value={sent.inviteLink}
            slotProps={{ input: { readOnly: true } }}
            sx={{ mt: 1 }}
          />
        </Alert>
      ) : null}
      {sent?.emailed ? (
        <Alert severity="success" sx={{ mt: 2 }}>
          The invite was emailed to {sent.email}.
        </Alert>
      ) : null}
    </Paper>
  );
}

function PendingInvites({ invites }: { invites: Invite[] }) {
  const act = useQueryAction(ADMIN_KEY);
  const phone = usePhone();
  const expires = (invite: Invite) => new Date(invite.expiresAt).toLocaleDateString();
  if (invites.length === 0)
    return <Typography color="text.secondary">No pending invites.</Typography>;
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto', ...PHONE_CELLS }}>
      <PlainTable
        label="Pending invites"
        columns={['Name', !phone && 'Email', 'Role', !phone && 'Expires', 'Actions']}
      >
        {invites.map((invite) => (
          <TableRow key={invite.id}>
            <NameCell name={invite.name} email={invite.email} more={`Expires ${expires(invite)}`} />
            {phone ? null : <TableCell>{invite.email}</TableCell>}
            <TableCell>{invite.role}</TableCell>
            {phone ? null : <TableCell>{expires(invite)}</TableCell>}
            <TableCell>
              <Button
                aria-label={`Withdraw the invite for ${invite.email}`}
                onClick={() =>
                  void act(
                    () => apiFetch(`/v1/invites/${invite.id}`, { method: 'DELETE' }),
                    `Invite for ${invite.email} withdrawn`,
                  )
                }
              >
                Withdraw
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </PlainTable>
    </Paper>
  );
}

/** Users and their roles, deactivation with hand-over, invites. */
export function UsersScreen() {
  const users = useQuery({
    queryKey: USERS_KEY,
    queryFn: () => fetchAll<User>('/v1/users?limit=100'),
  });
  const invites = useQuery({
    queryKey: INVITES_KEY,
    queryFn: async () => ((await apiFetch('/v1/invites')).json as { invites: Invite[] }).invites,
  });
  return (
    <>
      <PageHeading>Users</PageHeading>
      {users.error ? <Alert severity="error">{(users.error as Error).message}</Alert> : null}
      <Stack spacing={3}>
        <UsersTable users={users.data ?? []} />
        <InviteForm />
        <Box>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            Pending invites
          </Typography>
          <PendingInvites invites={invites.data ?? []} />
        </Box>
      </Stack>
    </>
  );
}
