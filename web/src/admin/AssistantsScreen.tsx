import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Chip, Paper, TableCell, TableRow, Typography } from '@mui/material';
import { fetchPage } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDelete } from './ConfirmDelete';
import { usePhone } from './kit';
import { PlainTable } from './PlainTable';
import type { Assistant, ToolCall } from '../api/types';

const ASSISTANTS_KEY = 'mcp-assistants';

const when = (iso: string) => new Date(iso).toLocaleString();

function ToolCalls({ calls }: { calls: ToolCall[] }) {
  const phone = usePhone();
  return (
    <Paper variant="outlined">
      <PlainTable
        label="Tool calls"
        size="small"
        columns={['When', 'User', 'Assistant', 'Tool', !phone && 'Arguments', 'Outcome']}
      >
        {calls.map((call) => (
          <TableRow key={call.id}>
            <TableCell>{when(call.created)}</TableCell>
            <TableCell>{call.userName}</TableCell>
            <TableCell>{call.assistantName ?? 'API key'}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{call.tool}</TableCell>
            {phone ? null : (
              <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', maxWidth: 360 }}>
                {call.arguments}
              </TableCell>
            )}
            <TableCell title={call.error ?? undefined}>
              <Chip
                size="small"
                variant="outlined"
                label={call.outcome === 'ok' ? 'Done' : 'Refused'}
                color={call.outcome === 'ok' ? 'success' : 'error'}
              />
            </TableCell>
          </TableRow>
        ))}
      </PlainTable>
    </Paper>
  );
}

/** AI assistants connected through MCP, what each did, and disconnecting one (Owner). */
export function AssistantsScreen() {
  const [leaving, setLeaving] = useState<Assistant | null>(null);
  const assistants = useQuery({
    queryKey: [ASSISTANTS_KEY],
    queryFn: () => fetchPage<Assistant>('/v1/mcp/assistants?limit=100'),
  });
  const calls = useQuery({
    queryKey: [ASSISTANTS_KEY, 'calls'],
    queryFn: () => fetchPage<ToolCall>('/v1/mcp/toolCalls?limit=50'),
  });
  const error = (assistants.error ?? calls.error) as Error | null;
  return (
    <>
      <PageHeading>AI assistants</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Assistants such as Claude or ChatGPT connect at <code>/mcp</code> and act as the user who
        allowed them, with that user’s role. Disconnecting one stops its access at once.
      </Typography>
      {error ? <Alert severity="error">{error.message}</Alert> : null}
      <Paper variant="outlined" sx={{ mb: 3 }}>
        <PlainTable label="Assistants" columns={['Assistant', 'Users', 'Connected', 'Actions']}>
          {(assistants.data?.items ?? []).map((assistant) => (
            <TableRow key={assistant.id}>
              <TableCell sx={{ fontWeight: 600 }}>{assistant.name}</TableCell>
              <TableCell>{assistant.users}</TableCell>
              <TableCell>{when(assistant.created)}</TableCell>
              <TableCell>
                <Button
                  size="small"
                  aria-label={`Disconnect ${assistant.name}`}
                  onClick={() => setLeaving(assistant)}
                >
                  Disconnect
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </PlainTable>
      </Paper>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Recent tool calls
      </Typography>
      <ToolCalls calls={calls.data?.items ?? []} />
      {leaving ? (
        <ConfirmDelete
          title={`Disconnect ${leaving.name}?`}
          content="Its tokens stop working now; it can connect again only with a user’s consent."
          path={`/v1/mcp/assistants/${leaving.id}`}
          done={`${leaving.name} disconnected`}
          resources={[ASSISTANTS_KEY]}
          onClose={() => setLeaving(null)}
        />
      ) : null}
    </>
  );
}
