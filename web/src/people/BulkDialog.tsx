import { useState } from 'react';
import { useNotify, useRefresh } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { fetchAll } from '../api/lists';
import type { Named } from '../admin/kit';
import { usePhone } from '../admin/kit';
import {
  type BulkKind,
  type BulkProgress,
  type BulkTarget,
  bulkOutcome,
  bulkProgress,
  startBulk,
} from './bulk';

export const TITLES: Record<BulkKind, string> = {
  assign: 'Assign',
  tag: 'Add tag',
  untag: 'Remove tag',
  stage: 'Change stage',
  delete: 'Delete',
};
const FIELDS: Record<Exclude<BulkKind, 'delete'>, string> = {
  assign: 'Agent',
  tag: 'Tag',
  untag: 'Tag',
  stage: 'Stage',
};

function useChoices(kind: BulkKind) {
  const source = kind === 'assign' ? '/v1/users?limit=100' : '/v1/stages?limit=100';
  return useQuery({
    queryKey: ['bulkChoices', source],
    enabled: kind === 'assign' || kind === 'stage',
    queryFn: () => fetchAll<Named>(source),
  });
}

const finished = (p: BulkProgress | undefined) => p?.status === 'done' || p?.status === 'failed';

/** Follows the job on the server until it ends. */
function useProgress(id: number | null) {
  return useQuery({
    queryKey: ['bulkAction', id],
    enabled: id !== null,
    queryFn: () => bulkProgress(id!),
    refetchInterval: (query) => (finished(query.state.data) ? false : 500),
  });
}

function ValueField({
  kind,
  value,
  onChange,
}: {
  kind: BulkKind;
  value: string;
  onChange: (v: string) => void;
}) {
  const choices = useChoices(kind);
  if (kind === 'delete')
    return (
      <Typography>
        They go with their notes, calls, tasks and the rest of their timeline.
      </Typography>
    );
  if (kind === 'tag' || kind === 'untag')
    return (
      <TextField
        label={FIELDS[kind]}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        fullWidth
        autoFocus
        margin="dense"
      />
    );
  return (
    <TextField
      select
      label={FIELDS[kind]}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      fullWidth
      margin="dense"
    >
      {(choices.data ?? []).map((c) => (
        <MenuItem key={c.id} value={String(c.id)}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * Asks for the action's value, starts it as one server job for everyone chosen (a page's rows or
 * all the filter matches), then shows its progress and, once it ends, what it did.
 */
export function BulkDialog({
  kind,
  target,
  count,
  onClose,
}: {
  kind: BulkKind;
  target: BulkTarget;
  count: number;
  onClose: (changed: boolean) => void;
}) {
  const notify = useNotify();
  const refresh = useRefresh();
  const phone = usePhone();
  const choices = useChoices(kind);
  const [value, setValue] = useState('');
  const [jobId, setJobId] = useState<number | null>(null);
  const [starting, setStarting] = useState(false);
  const [key] = useState(() => crypto.randomUUID());
  const progress = useProgress(jobId);
  const titleId = `bulk-${kind}-title`;
  const label =
    kind === 'tag' || kind === 'untag'
      ? value.trim()
      : (choices.data?.find((c) => String(c.id) === value)?.name ?? '');
  const people = count === 1 ? '1 person' : `${count.toLocaleString('en-US')} people`;
  const job = progress.data;
  const ended = finished(job);
  const outcome = job && ended ? bulkOutcome(kind, job, label) : null;

  const apply = async () => {
    setStarting(true);
    try {
      const started = await startBulk(kind, value.trim(), target, key);
      setJobId(started.id);
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    } finally {
      setStarting(false);
    }
  };
  const close = () => {
    if (ended) {
      notify(outcome!, { type: job!.status === 'failed' ? 'error' : 'info' });
      refresh();
    }
    onClose(ended);
  };
  const busy = starting || (jobId !== null && !ended);
  return (
    <Dialog open onClose={busy ? undefined : close} fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {kind === 'delete' ? `Delete ${people}?` : `${TITLES[kind]}: ${people}`}
      </DialogTitle>
      <DialogContent sx={{ minWidth: phone ? undefined : 380 }}>
        {jobId === null ? <ValueField kind={kind} value={value} onChange={setValue} /> : null}
        {job && !ended ? (
          <Box sx={{ mt: 2 }}>
            <LinearProgress
              variant="determinate"
              value={job.total ? (100 * job.processed) / job.total : 0}
              aria-label="Progress"
            />
            <Typography variant="body2" sx={{ mt: 1 }} role="status">
              {job.processed.toLocaleString('en-US')} of {job.total.toLocaleString('en-US')} done
            </Typography>
          </Box>
        ) : null}
        {outcome ? (
          <Alert
            severity={job!.status === 'failed' ? 'error' : job!.skipped ? 'warning' : 'success'}
            role="status"
          >
            {outcome}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        {jobId === null ? (
          <>
            <Button onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="contained"
              color={kind === 'delete' ? 'error' : 'primary'}
              disabled={busy || (kind !== 'delete' && !value.trim())}
              onClick={apply}
            >
              {kind === 'delete' ? 'Delete' : 'Apply'}
            </Button>
          </>
        ) : (
          <Button variant="contained" onClick={close} disabled={!ended}>
            Close
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
