import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { useQueryAction } from './kit';
import { OrderedList, RowAction } from './OrderedList';
import { DeleteStageDialog, RenameStageDialog } from './StageDialogs';
import type { Stage } from '../api/types';

const STAGES_KEY = ['admin', 'stages'];

/**
 * People stages in their order. Dropping a stage on another gives it that stage's orderWeight: the
 * server renumbers the others (10, 20, 30…), so the dropped stage takes exactly that place.
 * Move up / Move down do the same from the keyboard.
 */
export function StagesScreen() {
  const run = useQueryAction(STAGES_KEY);
  const [newName, setNewName] = useState('');
  const [dialog, setDialog] = useState<{ kind: 'rename' | 'delete'; stage: Stage } | null>(null);
  const {
    data: stages = [],
    error,
    isPending,
  } = useQuery({
    queryKey: STAGES_KEY,
    queryFn: () => fetchAll<Stage>('/v1/stages?limit=100&sort=orderWeight'),
  });

  const moveTo = (stage: Stage, target: Stage) =>
    run(
      () =>
        apiFetch(`/v1/stages/${stage.id}`, {
          method: 'PUT',
          body: { orderWeight: target.orderWeight },
        }),
      `${stage.name} moved`,
    );

  async function addStage() {
    const name = newName.trim();
    if (!name) return;
    await run(() => apiFetch('/v1/stages', { method: 'POST', body: { name } }), `${name} added`);
    setNewName('');
  }

  return (
    <>
      <PageHeading>Stages</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Drag a stage onto another to put it in that place, or use the arrows. Deleting a stage asks
        where its people go.
      </Typography>
      {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
      {isPending ? <Typography>Loading stages…</Typography> : null}
      <Paper variant="outlined" sx={{ maxWidth: 640 }}>
        <OrderedList
          label="Stages in order"
          items={stages}
          onMove={(stage, target) => void moveTo(stage, target)}
          details={(stage) =>
            stage.isProtected ? (
              <Typography variant="body2" color="text.secondary">
                Built in: cannot be renamed or deleted
              </Typography>
            ) : null
          }
          actions={(stage) =>
            stage.isProtected ? null : (
              <>
                <RowAction
                  label={`Rename: ${stage.name}`}
                  tip="Rename"
                  icon={<EditIcon fontSize="small" />}
                  onClick={() => setDialog({ kind: 'rename', stage })}
                />
                <RowAction
                  label={`Delete: ${stage.name}`}
                  tip="Delete"
                  color="error"
                  icon={<DeleteIcon fontSize="small" />}
                  onClick={() => setDialog({ kind: 'delete', stage })}
                />
              </>
            )
          }
        />
      </Paper>
      {dialog?.kind === 'rename' ? (
        <RenameStageDialog stage={dialog.stage} onDone={run} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteStageDialog
          stage={dialog.stage}
          stages={stages}
          onDone={run}
          onClose={() => setDialog(null)}
        />
      ) : null}
      <Stack direction="row" spacing={1} sx={{ mt: 2, maxWidth: 640 }}>
        <TextField
          label="New stage"
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          sx={{ flex: 1 }}
        />
        <Button variant="contained" onClick={() => void addStage()} sx={{ minHeight: 44 }}>
          Add stage
        </Button>
      </Stack>
    </>
  );
}
