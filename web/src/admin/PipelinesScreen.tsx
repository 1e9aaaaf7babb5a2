import { useState } from 'react';
import {
  ArrayInput,
  BooleanInput,
  SimpleFormIterator,
  TextInput,
  required,
  useGetList,
  usePermissions,
} from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Chip,
  IconButton,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDelete } from './ConfirmDelete';
import { FormDialog, useApiAction, withoutBlanks } from './kit';
import { OrderedList } from './OrderedList';
import { ScreenIntro } from './ScreenIntro';
import type { Pipeline, PipelineStage } from '../api/types';

type Editing =
  | { kind: 'new-pipeline' }
  | { kind: 'pipeline'; pipeline: Pipeline }
  | { kind: 'stage'; pipeline: Pipeline; stage: PipelineStage };
type Deleting =
  | { kind: 'pipeline'; pipeline: Pipeline }
  | { kind: 'stage'; pipeline: Pipeline; stage: PipelineStage };

const pipelinePath = (p: Pipeline) => `/v1/pipelines/${p.id}`;

function StageDetails({ stage }: { stage: PipelineStage }) {
  if (!stage.color && !stage.closedStage && !stage.description) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
      {stage.color ? (
        <Box
          aria-hidden
          sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: stage.color, flexShrink: 0 }}
        />
      ) : null}
      {stage.closedStage ? <Chip size="small" label="Closed stage" /> : null}
      {stage.description ? (
        <Typography variant="body2" color="text.secondary">
          {stage.description}
        </Typography>
      ) : null}
    </Stack>
  );
}

function PipelineCard({
  pipeline,
  readOnly,
  onEdit,
  onDelete,
}: {
  pipeline: Pipeline;
  readOnly: boolean;
  onEdit: (editing: Editing) => void;
  onDelete: (deleting: Deleting) => void;
}) {
  const act = useApiAction(['pipelines']);
  const [newStage, setNewStage] = useState('');
  const stages = [...pipeline.stages].sort((a, b) => a.orderWeight - b.orderWeight);
  const headingId = `pipeline-${pipeline.id}`;

  const moveStage = (stage: PipelineStage, target: PipelineStage) =>
    void act(
      () =>
        apiFetch(pipelinePath(pipeline), {
          method: 'PUT',
          body: { stages: [{ id: stage.id, orderWeight: target.orderWeight }] },
        }),
      `${stage.name} moved`,
    );

  async function addStage() {
    const name = newStage.trim();
    if (!name) return;
    const { ok } = await act(
      () => apiFetch(pipelinePath(pipeline), { method: 'PUT', body: { stages: [{ name }] } }),
      `${name} added to ${pipeline.name}`,
    );
    if (ok) setNewStage('');
  }

  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId}>
      <Stack
        direction="row"
        sx={{ alignItems: 'flex-start', px: 2, pt: 1.5, pb: 1, gap: 1, flexWrap: 'wrap' }}
      >
        <Box sx={{ flex: 1, minWidth: 160 }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {pipeline.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {pipeline.description ||
              `${stages.length} stage${stages.length === 1 ? '' : 's'}, in order`}
          </Typography>
        </Box>
        {readOnly ? null : (
          <Stack direction="row" spacing={1}>
            <Button
              size="small"
              startIcon={<EditIcon />}
              aria-label={`Edit pipeline ${pipeline.name}`}
              onClick={() => onEdit({ kind: 'pipeline', pipeline })}
            >
              Edit
            </Button>
            <Button
              size="small"
              color="error"
              startIcon={<DeleteIcon />}
              aria-label={`Delete pipeline ${pipeline.name}`}
              onClick={() => onDelete({ kind: 'pipeline', pipeline })}
            >
              Delete
            </Button>
          </Stack>
        )}
      </Stack>
      <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
        <OrderedList
          label={`Stages of ${pipeline.name}`}
          items={stages}
          readOnly={readOnly}
          empty="No stages yet."
          onMove={moveStage}
          details={(stage) => <StageDetails stage={stage} />}
          actions={(stage) => (
            <>
              <Tooltip title="Edit stage">
                <IconButton
                  size="small"
                  aria-label={`Edit stage ${stage.name}`}
                  onClick={() => onEdit({ kind: 'stage', pipeline, stage })}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title="Delete stage">
                <IconButton
                  size="small"
                  aria-label={`Delete stage ${stage.name}`}
                  onClick={() => onDelete({ kind: 'stage', pipeline, stage })}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </>
          )}
        />
      </Box>
      {readOnly ? null : (
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ p: 2, pt: 1.5, borderTop: 1, borderColor: 'divider' }}
          onSubmit={(event) => {
            event.preventDefault();
            void addStage();
          }}
        >
          <TextField
            label={`New stage in ${pipeline.name}`}
            size="small"
            value={newStage}
            onChange={(event) => setNewStage(event.target.value)}
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="outlined" sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            Add stage
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

function EditDialog({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const act = useApiAction(['pipelines']);
  if (editing.kind === 'new-pipeline')
    return (
      <FormDialog
        resource="pipelines"
        title="New pipeline"
        record={{ stages: [{ name: '' }, { name: '' }] }}
        onClose={onClose}
        onSubmit={(values) => {
          const stages = ((values.stages as { name?: string }[] | undefined) ?? [])
            .map((s) => ({ name: (s?.name ?? '').trim() }))
            .filter((s) => s.name);
          const body = {
            ...withoutBlanks({ name: values.name, description: values.description }),
            stages,
          };
          return act(
            () => apiFetch('/v1/pipelines', { method: 'POST', body }),
            `Pipeline ${String(values.name)} added`,
          );
        }}
      >
        <TextInput source="name" label="Pipeline name" validate={required()} fullWidth />
        <TextInput source="description" label="Description" multiline fullWidth />
        <ArrayInput source="stages" label="Stages, in order">
          <SimpleFormIterator inline disableReordering disableClear>
            <TextInput source="name" label="Stage name" helperText={false} />
          </SimpleFormIterator>
        </ArrayInput>
      </FormDialog>
    );
  if (editing.kind === 'pipeline') {
    const { pipeline } = editing;
    return (
      <FormDialog
        resource="pipelines"
        title={`Edit pipeline ${pipeline.name}`}
        record={{ id: pipeline.id, name: pipeline.name, description: pipeline.description }}
        onClose={onClose}
        onSubmit={(values) =>
          act(
            () =>
              apiFetch(pipelinePath(pipeline), {
                method: 'PUT',
                body: { name: values.name, description: values.description ?? '' },
              }),
            `Pipeline ${String(values.name)} saved`,
          )
        }
      >
        <TextInput source="name" label="Pipeline name" validate={required()} fullWidth />
        <TextInput source="description" label="Description" multiline fullWidth />
      </FormDialog>
    );
  }
  const { pipeline, stage } = editing;
  return (
    <FormDialog
      resource="pipelines"
      title={`Edit stage ${stage.name}`}
      record={{ ...stage, color: stage.color || '#9a3f1c' }}
      onClose={onClose}
      onSubmit={(values) =>
        act(
          () =>
            apiFetch(pipelinePath(pipeline), {
              method: 'PUT',
              body: {
                stages: [
                  {
                    id: stage.id,
                    name: values.name,
                    description: values.description ?? '',
                    color: values.color ?? '',
                    closedStage: Boolean(values.closedStage),
                  },
                ],
              },
            }),
          `Stage ${String(values.name)} saved`,
        )
      }
    >
      <TextInput source="name" label="Stage name" validate={required()} fullWidth />
      <TextInput source="description" label="Description" multiline fullWidth />
      <TextInput source="color" label="Colour" type="color" sx={{ width: 120 }} />
      <BooleanInput
        source="closedStage"
        label="Closed stage (deals here are won or lost)"
        helperText={false}
      />
    </FormDialog>
  );
}

function DeleteConfirm({ deleting, onClose }: { deleting: Deleting; onClose: () => void }) {
  const stage = deleting.kind === 'stage' ? deleting.stage : null;
  const name = stage ? stage.name : deleting.pipeline.name;
  return (
    <ConfirmDelete
      title={stage ? `Delete stage ${name}?` : `Delete pipeline ${name}?`}
      content={
        stage
          ? `Deals must be moved out of ${name} first.`
          : `Its stages go with it. A pipeline that still has deals is kept.`
      }
      path={
        stage
          ? `${pipelinePath(deleting.pipeline)}/stages/${stage.id}`
          : pipelinePath(deleting.pipeline)
      }
      done={`${name} deleted`}
      resources={['pipelines']}
      onClose={onClose}
    />
  );
}

/**
 * Deal pipelines and their stages. Everyone reads pipelines; only the Owner changes them (the API
 * refuses the others), so an Admin sees them without the controls.
 */
export function PipelinesScreen() {
  const { permissions } = usePermissions();
  const readOnly = permissions !== 'Owner';
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const { data, error, isPending } = useGetList<Pipeline>('pipelines', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'orderWeight', order: 'ASC' },
  });
  const pipelines = data ?? [];

  return (
    <>
      <PageHeading>Pipelines</PageHeading>
      <ScreenIntro
        addLabel="New pipeline"
        onAdd={readOnly ? undefined : () => setEditing({ kind: 'new-pipeline' })}
      >
        Each pipeline is a board of deals. Drag a stage onto another to put it in that place, or use
        the arrows.
      </ScreenIntro>
      {readOnly ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Only the account&apos;s Owner changes pipelines.
        </Alert>
      ) : null}
      {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
      {isPending ? <Typography>Loading pipelines…</Typography> : null}
      {!isPending && pipelines.length === 0 ? (
        <Alert severity="info">No pipelines yet. Add one to track deals on a board.</Alert>
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: 'repeat(auto-fill, minmax(420px, 1fr))' },
          alignItems: 'start',
        }}
      >
        {pipelines.map((pipeline) => (
          <PipelineCard
            key={pipeline.id}
            pipeline={pipeline}
            readOnly={readOnly}
            onEdit={setEditing}
            onDelete={setDeleting}
          />
        ))}
      </Box>
      {editing ? <EditDialog editing={editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? <DeleteConfirm deleting={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
