import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import {
  loadOlder,
  loadTimeline,
  mergeTimeline,
  timelineKey,
  type TimelineState,
} from './timeline.data';
import { TimelineItem } from './TimelineItem';
import { groupConversations } from './EmailConversation';

export { timelineKey } from './timeline.data';

/** Everything that happened with the person, newest first, one list across record kinds. */
export function Timeline({ personId }: { personId: number }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const key = timelineKey(personId);
  const { data, isPending, error } = useQuery({
    queryKey: key,
    queryFn: () => loadTimeline(personId),
  });

  async function older() {
    if (!data) return;
    try {
      queryClient.setQueryData<TimelineState>(key, await loadOlder(data));
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    }
  }

  async function toggleTask(task: { id: number; isCompleted?: unknown }) {
    try {
      await apiFetch(`/v1/tasks/${task.id}`, {
        method: 'PUT',
        body: { isCompleted: !task.isCompleted },
      });
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    }
  }

  if (isPending) return <CircularProgress size={24} aria-label="Loading the timeline" />;
  if (error) return <Typography color="error">{(error as Error).message}</Typography>;
  const merged = mergeTimeline(data);
  const entries = groupConversations(merged.entries);
  const { hasOlder } = merged;
  return (
    <Box component="section" aria-labelledby="timeline-heading">
      <Typography id="timeline-heading" variant="h6" component="h2" sx={{ mt: 1 }}>
        Timeline
      </Typography>
      {entries.length === 0 ? <Typography color="text.secondary">Nothing yet.</Typography> : null}
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {entries.map((entry) => (
          <TimelineItem
            key={`${entry.kind}-${entry.record.id}`}
            entry={entry}
            onTaskToggle={toggleTask}
          />
        ))}
      </Box>
      {hasOlder ? (
        <Button onClick={older} sx={{ mt: 1 }}>
          Show older
        </Button>
      ) : null}
    </Box>
  );
}
