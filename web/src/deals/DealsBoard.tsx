import { useState, type DragEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  MenuItem,
  Paper,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { money } from '../person/format';
import { NewDealDialog } from './NewDealDialog';
import { EditDealDialog } from './EditDealDialog';
import { ScrollingColumns } from './ScrollingColumns';
import type { Deal as FullDeal, Pipeline as FullPipeline, PipelineStage } from '../api/types';

type Stage = Pick<PipelineStage, 'id' | 'name' | 'orderWeight' | 'outcome'>;
type Pipeline = Pick<FullPipeline, 'id' | 'name'> & { stages: Stage[] };
type Deal = Pick<FullDeal, 'id' | 'name' | 'stageId' | 'price' | 'people' | 'users'>;

function DealCard({
  deal,
  stages,
  onMove,
}: {
  deal: Deal;
  stages: Stage[];
  onMove: (deal: Deal, stageId: number) => void;
}) {
  const [open, setOpen] = useState(false);
  function dragStart(event: DragEvent) {
    event.dataTransfer.setData('text/plain', String(deal.id));
    event.dataTransfer.effectAllowed = 'move';
  }
  return (
    <Card
      component="li"
      draggable
      onDragStart={dragStart}
      variant="outlined"
      aria-label={deal.name}
      sx={{ mb: 1, cursor: 'grab', listStyle: 'none' }}
    >
      <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Button
          onClick={() => setOpen(true)}
          aria-label={`Open ${deal.name}`}
          sx={{ p: 0, minWidth: 0, fontWeight: 600, textTransform: 'none', textAlign: 'left' }}
        >
          {deal.name}
        </Button>
        {open ? (
          <EditDealDialog
            dealId={deal.id}
            boardKey={['deals']}
            stages={stages}
            onClose={() => setOpen(false)}
          />
        ) : null}
        <Typography variant="body2" color="text.secondary">
          {money(deal.price)}
          {deal.people.map((p) => (
            <span key={p.id}>
              {' · '}
              <Link to={`/people/${p.id}`}>{p.name}</Link>
            </span>
          ))}
        </Typography>
        {/* The keyboard and screen-reader way to do what dragging does. */}
        <TextField
          select
          size="small"
          variant="standard"
          label="Stage"
          value={deal.stageId}
          onChange={(e) => onMove(deal, Number(e.target.value))}
          sx={{ mt: 0.5, minWidth: 140 }}
        >
          {stages.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
      </CardContent>
    </Card>
  );
}

interface ColumnProps {
  stage: Stage;
  stages: Stage[];
  /** Every deal of the board: a dropped card may come from any column. */
  all: Deal[];
  onMove: (deal: Deal, stageId: number) => void;
}

function Column({ stage, stages, all, onMove }: ColumnProps) {
  const [over, setOver] = useState(false);
  const deals = all.filter((d) => d.stageId === stage.id);
  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    const deal = all.find((d) => d.id === Number(event.dataTransfer.getData('text/plain')));
    if (deal && deal.stageId !== stage.id) onMove(deal, stage.id);
  }
  const total = deals.reduce((sum, d) => sum + (d.price ?? 0), 0);
  return (
    <Paper
      component="section"
      aria-label={stage.name}
      data-stage={stage.id}
      variant="outlined"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      sx={{
        width: { xs: '85vw', sm: 280 },
        flex: '0 0 auto',
        p: 1,
        bgcolor: over ? 'action.hover' : 'background.paper',
        minHeight: 200,
      }}
    >
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, px: 0.5 }}>
        {stage.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ px: 0.5 }}>
        {deals.length} · {money(total)}
      </Typography>
      <Box component="ul" sx={{ p: 0, m: 0, mt: 1 }}>
        {deals.map((deal) => (
          <DealCard key={deal.id} deal={deal} stages={stages} onMove={onMove} />
        ))}
      </Box>
    </Paper>
  );
}

function Board({ pipeline }: { pipeline: Pipeline }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [adding, setAdding] = useState(false);
  const key = ['deals', pipeline.id];
  const { data: deals = [], error } = useQuery({
    queryKey: key,
    queryFn: () => fetchAll<Deal>(`/v1/deals?pipelineId=${pipeline.id}&limit=100`),
  });
  const stages = [...pipeline.stages].sort((a, b) => a.orderWeight - b.orderWeight);

  async function move(deal: Deal, stageId: number) {
    queryClient.setQueryData<Deal[]>(key, (old = []) =>
      old.map((d) => (d.id === deal.id ? { ...d, stageId } : d)),
    );
    try {
      await apiFetch(`/v1/deals/${deal.id}`, { method: 'PUT', body: { stageId } });
      notify(`${deal.name} moved to ${stages.find((s) => s.id === stageId)?.name}`, {
        type: 'success',
      });
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    }
    await queryClient.invalidateQueries({ queryKey: key });
  }

  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  return (
    <>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          New deal
        </Button>
      </Box>
      <ScrollingColumns>
        {stages.map((stage) => (
          <Column key={stage.id} stage={stage} stages={stages} all={deals} onMove={move} />
        ))}
      </ScrollingColumns>
      {adding ? (
        <NewDealDialog pipelineId={pipeline.id} stages={stages} onClose={() => setAdding(false)} />
      ) : null}
    </>
  );
}

/** /deals: one board per pipeline; drag a card (or pick its Stage) to move the deal. */
export function DealsBoard() {
  const [tab, setTab] = useState(0);
  const { data: pipelines, isPending } = useQuery({
    queryKey: ['pipelines'],
    queryFn: () => fetchAll<Pipeline>('/v1/pipelines?limit=100'),
  });
  return (
    <>
      <PageHeading>Deals</PageHeading>
      {!isPending && !pipelines?.length ? (
        <Alert severity="info">No pipelines yet. An Owner creates them in the admin area.</Alert>
      ) : null}
      {pipelines && pipelines.length > 1 ? (
        <Tabs
          value={tab}
          onChange={(_e, v) => setTab(v)}
          variant="scrollable"
          sx={{ mb: 1 }}
          aria-label="Pipelines"
        >
          {pipelines.map((p) => (
            <Tab key={p.id} label={p.name} />
          ))}
        </Tabs>
      ) : null}
      {pipelines?.[tab] ? <Board key={pipelines[tab].id} pipeline={pipelines[tab]} /> : null}
      <LinkedDeal />
    </>
  );
}

/** /deals?deal=ID (the global search's link to a deal) opens that deal for editing. */
function LinkedDeal() {
  const [params, setParams] = useSearchParams();
  const dealId = Number(params.get('deal'));
  if (!Number.isInteger(dealId) || dealId <= 0) return null;
  return (
    <EditDealDialog
      key={dealId}
      dealId={dealId}
      boardKey={['deals']}
      onClose={() => setParams({}, { replace: true })}
    />
  );
}
