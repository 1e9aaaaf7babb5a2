import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { useQueryAction } from '../admin/kit';
import { QueryState } from '../layout/QueryState';
import { actionText, type Automation, type Lookup } from './model';
import { useAutomationChoices } from './useNames';
import type { AutomationPerson } from '../api/types';

type Run = AutomationPerson;

const STATUS_COLOR = {
  Initial: 'info',
  Running: 'success',
  Paused: 'warning',
  Completed: 'default',
  Cancelled: 'default',
} as const;

/**
 * Where a run is, in words. `stepsCompleted` counts a wait once it has begun, so a run whose
 * `waitingUntil` is ahead is waiting before the step at that index.
 */
function currentStep(run: Run, automation: Automation | undefined, name: Lookup) {
  if (run.status === 'Completed') return 'Every step done';
  if (run.status === 'Cancelled')
    return `Stopped after ${run.stepsCompleted} step${run.stepsCompleted === 1 ? '' : 's'}`;
  if (!automation) return `Steps done: ${run.stepsCompleted}`;
  const step = automation.actions[run.stepsCompleted];
  if (!step) return 'Finishing';
  const next = `step ${run.stepsCompleted + 1} of ${automation.actions.length}: ${actionText(step, name)}`;
  const wake = run.waitingUntil ? new Date(run.waitingUntil) : null;
  if (wake && wake.getTime() > Date.now())
    return `Waiting until ${wake.toLocaleString()}, then ${next}`;
  return next.charAt(0).toUpperCase() + next.slice(1);
}

function RunItem({
  run,
  automation,
  canAct,
}: {
  run: Run;
  automation?: Automation;
  canAct: boolean;
}) {
  const { name } = useAutomationChoices();
  const act = useQueryAction(['automationRuns']);
  const set = (status: 'Running' | 'Paused' | 'Cancelled', done: string) =>
    act(
      () => apiFetch(`/v1/automationsPeople/${run.id}`, { method: 'PUT', body: { status } }),
      done,
    );
  const open = run.status === 'Initial' || run.status === 'Running' || run.status === 'Paused';
  return (
    <Box component="li" aria-label={`Automation ${run.automationName}`} sx={{ py: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600 }}>{run.automationName}</Typography>
        <Chip size="small" variant="outlined" label={run.status} color={STATUS_COLOR[run.status]} />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {currentStep(run, automation, name)}
      </Typography>
      {canAct && open ? (
        <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
          {run.status === 'Paused' ? (
            <Button
              size="small"
              aria-label={`Resume ${run.automationName}`}
              onClick={() => set('Running', `${run.automationName} resumed`)}
            >
              Resume
            </Button>
          ) : (
            <Button
              size="small"
              aria-label={`Pause ${run.automationName}`}
              onClick={() => set('Paused', `${run.automationName} paused`)}
            >
              Pause
            </Button>
          )}
          <Button
            size="small"
            color="error"
            aria-label={`Cancel ${run.automationName}`}
            onClick={() => set('Cancelled', `${run.automationName} cancelled`)}
          >
            Cancel
          </Button>
        </Stack>
      ) : null}
    </Box>
  );
}

/** The automations running (and run) for a person, on their page; Lenders only read. */
export function PersonAutomations({ personId }: { personId: number }) {
  const { permissions } = usePermissions();
  const runs = useQuery({
    queryKey: ['automationRuns', personId],
    queryFn: async () =>
      (await apiFetch(`/v1/automationsPeople?personId=${personId}&limit=100&sort=-id`)).json as {
        automationspeople: Run[];
      },
    // A run moves on by itself (a wait ends, a step is taken): keep what is shown current.
    refetchInterval: 30_000,
  });
  const hasRuns = (runs.data?.automationspeople.length ?? 0) > 0;
  const automations = useQuery({
    queryKey: ['automationRuns', 'automations'],
    // Read only for someone with runs, to name their steps.
    enabled: hasRuns,
    queryFn: async () =>
      ((await apiFetch('/v1/automations?limit=100')).json as { automations: Automation[] })
        .automations,
  });
  const list = runs.data?.automationspeople ?? [];
  // Most people never meet an automation: the section shows once one has run for them.
  if (runs.isSuccess && list.length === 0) return null;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="automations-heading"
      sx={{ mt: 2, p: 2 }}
    >
      <Typography id="automations-heading" variant="h6" component="h2">
        Automations
      </Typography>
      <QueryState
        query={runs}
        what="automations"
        empty="No automation has run for this person."
        isEmpty={list.length === 0}
      />
      {list.length > 0 ? (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {list.map((run) => (
            <RunItem
              key={run.id}
              run={run}
              automation={automations.data?.find((a) => a.id === run.automationId)}
              canAct={permissions !== 'Lender'}
            />
          ))}
        </Box>
      ) : null}
    </Paper>
  );
}
