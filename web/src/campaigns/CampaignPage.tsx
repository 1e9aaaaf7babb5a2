import { lazy, Suspense, useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, Box, LinearProgress, Link, Stack } from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import {
  campaignKey,
  getCampaign,
  getStats,
  isActive,
  type Campaign,
  type PersonOption,
} from './api';
import { Preview } from './Preview';
import { SendPanel } from './SendPanel';
import { StatsPanel } from './StatsPanel';
import { SendStatus } from './SendStatus';

// The rich-text editor (TipTap) loads with a campaign's page only, not with every page of the app.
const Composer = lazy(() => import('./Composer').then((m) => ({ default: m.Composer })));

/** One campaign: its message with a live preview, sending it, and its statistics as they grow. */
export function CampaignPage() {
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const [version, setVersion] = useState(0);
  const [previewPerson, setPreviewPerson] = useState<PersonOption | null>(null);
  const campaign = useQuery({
    queryKey: campaignKey(id),
    queryFn: () => getCampaign(id),
    refetchInterval: (q) => (isActive(q.state.data?.lastSend) ? 2000 : 10000),
  });
  const active = isActive(campaign.data?.lastSend);
  const stats = useQuery({
    queryKey: ['campaignStats', id],
    queryFn: () => getStats(id),
    refetchInterval: active ? 2000 : 10000,
  });
  const onSaved = useCallback(
    (saved: Campaign) => {
      queryClient.setQueryData(campaignKey(id), (old: Campaign | undefined) => ({
        ...old,
        ...saved,
      }));
      setVersion((v) => v + 1);
    },
    [id, queryClient],
  );
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: campaignKey(id) });
    void queryClient.invalidateQueries({ queryKey: ['campaignStats', id] });
  };

  if (campaign.error)
    return (
      <Box sx={{ p: 2 }}>
        <PageHeading>Campaign</PageHeading>
        <Alert severity="error">{(campaign.error as Error).message}</Alert>
      </Box>
    );
  const c = campaign.data;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1200 }}>
      <Link component={RouterLink} to="/campaigns" variant="body2">
        ← All campaigns
      </Link>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <PageHeading title={c?.name ?? 'Campaign'}>{c?.name ?? 'Campaign'}</PageHeading>
        {c && <SendStatus send={c.lastSend} />}
      </Stack>
      {c && (
        <Stack spacing={2}>
          {c.lastSend && <StatsPanel stats={stats.data} />}
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' },
              alignItems: 'start',
            }}
          >
            <Suspense fallback={<LinearProgress aria-label="Loading the editor" />}>
              <Composer key={c.id} campaign={c} onSaved={onSaved} />
            </Suspense>
            <Stack spacing={2} sx={{ minWidth: 0 }}>
              <Preview
                campaignId={c.id}
                version={version}
                person={previewPerson}
                setPerson={setPreviewPerson}
              />
              <SendPanel
                campaignId={c.id}
                send={c.lastSend}
                onChange={refresh}
                previewPerson={previewPerson}
              />
            </Stack>
          </Box>
          {!c.lastSend && <StatsPanel stats={stats.data} />}
        </Stack>
      )}
    </Box>
  );
}
