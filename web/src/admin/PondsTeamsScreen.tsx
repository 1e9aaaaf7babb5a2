import { useGetList } from 'react-admin';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import { WHOLE_LIST, type Named } from './kit';
import { PondsSection } from './PondsSection';
import { TeamsSection } from './TeamsSection';

/** Ponds (shared pools of leads) and teams (leaders who see their members' people). */
export function PondsTeamsScreen() {
  const users = useGetList<Named>('users', WHOLE_LIST);
  return (
    <>
      <PageHeading>Ponds and teams</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Who sees which people beyond their own: the members of a pond see its people, a team&apos;s
        leaders see the people of its members.
      </Typography>
      {users.error ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={<Button onClick={() => users.refetch()}>Retry</Button>}
        >
          Could not load the users: {(users.error as Error).message}
        </Alert>
      ) : null}
      <Stack spacing={4}>
        <PondsSection users={users.data ?? []} />
        <TeamsSection users={users.data ?? []} />
      </Stack>
    </>
  );
}
