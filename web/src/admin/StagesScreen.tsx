import { useState, type DragEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  List,
  ListItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { useQueryAction } from './kit';

interface Stage {
  id: number;
  name: string;
  orderWeight: number;
  isProtected?: boolean;
}

const STAGES_KEY = ['admin', 'stages'];

/**
 * People stages in their order. Dropping a stage on another gives it that stage's orderWeight: the
 * server renumbers the others (10, 20, 30…), so the dropped stage takes exactly that place.
 * Move up / Move down do the same from the keyboard.
 */
export function StagesScreen() {
  const run = useQueryAction(STAGES_KEY);
  const [dragged, setDragged] = useState<number | null>(null);
  const [newName, setNewName] = useState('');
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

  function drop(event: DragEvent, target: Stage) {
    event.preventDefault();
    const stage = stages.find((s) => s.id === dragged);
    setDragged(null);
    if (stage && stage.id !== target.id) void moveTo(stage, target);
  }

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
        Drag a stage onto another to put it in that place, or use Move up and Move down.
      </Typography>
      {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
      {isPending ? <Typography>Loading stages…</Typography> : null}
      <Paper variant="outlined" sx={{ maxWidth: 640 }}>
        <List aria-label="Stages in order">
          {stages.map((stage, index) => (
            <ListItem
              key={stage.id}
              draggable
              aria-label={stage.name}
              onDragStart={(event) => {
                event.dataTransfer.setData('text/plain', String(stage.id));
                event.dataTransfer.effectAllowed = 'move';
                setDragged(stage.id);
              }}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => drop(event, stage)}
              divider
              sx={{ cursor: 'grab', gap: 1, flexWrap: 'wrap' }}
            >
              <DragIndicatorIcon aria-hidden color="action" />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {stage.name}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  orderWeight {stage.orderWeight}
                </Typography>
              </Box>
              <Button
                size="small"
                disabled={index === 0}
                aria-label={`Move up: ${stage.name}`}
                onClick={() => void moveTo(stage, stages[index - 1]!)}
              >
                Move up
              </Button>
              <Button
                size="small"
                disabled={index === stages.length - 1}
                aria-label={`Move down: ${stage.name}`}
                onClick={() => void moveTo(stage, stages[index + 1]!)}
              >
                Move down
              </Button>
            </ListItem>
          ))}
        </List>
      </Paper>
      <Stack direction="row" spacing={1} sx={{ mt: 2, maxWidth: 640 }}>
        <TextField
          label="New stage"
          size="small"
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          sx={{ flex: 1 }}
        />
        <Button variant="contained" onClick={() => void addStage()}>
          Add stage
        </Button>
      </Stack>
    </>
  );
}
