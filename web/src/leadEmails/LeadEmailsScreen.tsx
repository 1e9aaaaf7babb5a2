import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Link as MuiLink,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import { LeadAddressesCard } from './LeadAddressesCard';
import { MakeLeadDialog } from './MakeLeadDialog';
import { ignoreEmail, inboundEmail, UNPARSED_KEY, unparsedEmails } from './api';
import type { InboundEmail, InboundEmailDetail } from '../api/types';

/** The message as the server gives it: plain text in a <pre>, so no HTML, script or remote content. */
function MessageText({ id }: { id: number }) {
  const { data, error } = useQuery({
    queryKey: ['leadEmails', 'detail', id],
    queryFn: () => inboundEmail(id),
  });
  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  if (!data) return <Skeleton height={120} />;
  return (
    <Box
      component="pre"
      aria-label="Message text"
      sx={{
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        maxHeight: 320,
        overflow: 'auto',
        bgcolor: 'action.hover',
        p: 1.5,
        borderRadius: 1,
        fontSize: '0.85rem',
      }}
    >
      {data.text}
    </Box>
  );
}

function EmailCard({
  email,
  onMakeLead,
  onIgnore,
}: {
  email: InboundEmail;
  onMakeLead: () => void;
  onIgnore: () => void;
}) {
  const headingId = `lead-email-${email.id}`;
  return (
    <Card variant="outlined" component="article" aria-labelledby={headingId}>
      <CardContent>
        <Typography
          id={headingId}
          variant="subtitle1"
          component="h3"
          sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}
        >
          {email.subject || '(no subject)'}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          From {email.from || 'unknown sender'} · {new Date(email.receivedAt).toLocaleString()}
          {email.parsedAt === null && ' · waiting for the parser'}
        </Typography>
        <Box sx={{ my: 1.5 }}>
          <MessageText id={email.id} />
        </Box>
        <Stack direction="row" spacing={1}>
          <Button variant="contained" onClick={onMakeLead}>
            Make a lead
          </Button>
          <Button onClick={onIgnore}>Ignore</Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** /lead-emails (Owner, Admin): the messages no parser read, to make into leads or ignore. */
export function LeadEmailsScreen() {
  const queryClient = useQueryClient();
  const { data, error } = useQuery({ queryKey: UNPARSED_KEY, queryFn: unparsedEmails });
  const [making, setMaking] = useState<InboundEmailDetail | null>(null);
  const [made, setMade] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: UNPARSED_KEY });
  const act = async (work: () => Promise<void>) => {
    setFailure(null);
    try {
      await work();
    } catch (err) {
      setFailure((err as Error).message);
    }
  };
  return (
    <Box sx={{ maxWidth: 880, pb: 4 }}>
      <PageHeading>Lead emails</PageHeading>
      <Stack spacing={2}>
        <LeadAddressesCard />
        <Typography variant="h6" component="h2">
          Unparsed messages
        </Typography>
        {made !== null && (
          <Alert severity="success">
            Lead made:{' '}
            <MuiLink component={Link} to={`/people/${made}`}>
              open the person
            </MuiLink>
          </Alert>
        )}
        {failure && <Alert severity="error">{failure}</Alert>}
        {error && <Alert severity="error">{(error as Error).message}</Alert>}
        {!data && !error && <Skeleton height={160} />}
        {data?.length === 0 && (
          <Typography color="text.secondary">Every message received was read as a lead.</Typography>
        )}
        {data?.map((email) => (
          <EmailCard
            key={email.id}
            email={email}
            onMakeLead={() => act(async () => setMaking(await inboundEmail(email.id)))}
            onIgnore={() =>
              act(async () => {
                await ignoreEmail(email.id);
                // Gone from the list at once; the refetch then confirms it.
                queryClient.setQueryData<InboundEmail[]>(UNPARSED_KEY, (list) =>
                  list?.filter((e) => e.id !== email.id),
                );
                await refresh();
              })
            }
          />
        ))}
      </Stack>
      {making && (
        <MakeLeadDialog
          detail={making}
          onClose={() => setMaking(null)}
          onMade={(personId) => {
            setMaking(null);
            setMade(personId);
            void refresh();
          }}
        />
      )}
    </Box>
  );
}
