import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Box, List, ListItem, ListItemText, MenuItem, TextField, Typography } from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import { money } from '../person/format';
import { ReportChart, ReportSection } from './ReportChart';
import type { CampaignRow, ReportPerson } from '../api/types';
import {
  type AgentRow,
  csvHref,
  duration,
  periodQuery,
  PERIODS,
  type SourceRow,
  type StageRow,
  useReport,
} from './reportsApi';

type Drill = { label: string; filter: string } | null;

/** The people behind a bar: the period's new leads of one agent or source. */
function DrillDown({ drill, query }: { drill: NonNullable<Drill>; query: string }) {
  const people = useReport<{ people: ReportPerson[] }>('people', query, drill.filter);
  return (
    <ReportSection
      title={`People: ${drill.label}`}
      csvHref={csvHref('people', query + drill.filter)}
    >
      <PeopleList people={people.data?.people} />
    </ReportSection>
  );
}

function PeopleList({ people }: { people: ReportPerson[] | undefined }) {
  if (!people) return <Typography color="text.secondary">Loading…</Typography>;
  if (people.length === 0) return <Typography color="text.secondary">Nobody.</Typography>;
  return (
    <List dense>
      {people.map((p) => (
        <ListItem key={p.personId} disableGutters>
          <ListItemText
            primary={<Link to={`/people/${p.personId}`}>{p.name || `Person ${p.personId}`}</Link>}
            secondary={`${p.source || 'No source'} · ${p.firstContact ? 'contacted after' : 'waiting'} ${duration(p.waitedSeconds)}`}
          />
        </ListItem>
      ))}
    </List>
  );
}

/** A label per campaign, told apart by id when two share a name (the chart's bands are labels). */
function campaignRows(campaigns: CampaignRow[]) {
  const named = (c: CampaignRow) => c.name || `Campaign ${c.campaignId}`;
  const seen = new Map<string, number>();
  for (const c of campaigns) seen.set(named(c), (seen.get(named(c)) ?? 0) + 1);
  return campaigns.map((c) => ({
    ...c,
    label: seen.get(named(c))! > 1 ? `${named(c)} (#${c.campaignId})` : named(c),
  }));
}

export function ReportsPage() {
  const [days, setDays] = useState(30);
  const [drill, setDrill] = useState<Drill>(null);
  const query = useMemo(() => periodQuery(days, Date.now()), [days]);
  const agents = useReport<{ agents: AgentRow[] }>('agentActivity', query).data?.agents;
  const sources = useReport<{ sources: SourceRow[] }>('leadSources', query).data?.sources;
  const waiting = useReport<{ people: ReportPerson[] }>('uncontacted', query).data?.people;
  const stages = useReport<{ stages: StageRow[] }>('pipeline', query).data?.stages;
  const campaigns = useReport<{ campaigns: CampaignRow[] }>('campaigns', query).data?.campaigns;
  const sourceRows = (sources ?? []).map((s) => ({
    ...s,
    source: s.source || 'No source',
    conversion: s.leads ? Math.round((100 * s.deals) / s.leads) : 0,
  }));
  return (
    <Box sx={{ pb: 4 }}>
      <PageHeading>Reports</PageHeading>
      <TextField
        select
        label="Period"
        value={days}
        onChange={(e) => {
          setDays(Number(e.target.value));
          setDrill(null);
        }}
        size="small"
        sx={{ mb: 2, width: 240, maxWidth: '100%' }}
      >
        {PERIODS.map((p) => (
          <MenuItem key={p.days} value={p.days}>
            {p.label}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        {drill ? <DrillDown drill={drill} query={query} /> : null}
        <ReportSection title="Speed to lead" csvHref={csvHref('agentActivity', query)}>
          <ReportChart
            title="Speed to lead"
            rows={(agents ?? []).filter((a) => a.newLeads > 0) as never}
            labelKey="name"
            series={[
              {
                key: 'speedToLeadSeconds',
                label: 'Median time to first contact',
                format: duration,
              },
            ]}
            onSelect={(row) =>
              setDrill({ label: String(row.name), filter: `&userId=${row.userId}` })
            }
          />
        </ReportSection>
        <ReportSection title="Leads by source" csvHref={csvHref('leadSources', query)}>
          <ReportChart
            title="Leads by source"
            rows={sourceRows as never}
            labelKey="source"
            series={[
              { key: 'leads', label: 'Leads' },
              { key: 'contacted', label: 'Contacted' },
              { key: 'deals', label: 'Deals' },
              {
                key: 'conversion',
                label: 'Conversion %',
                format: (v) => `${v ?? 0} %`,
                tableOnly: true,
              },
            ]}
            onSelect={(row) => {
              const source =
                sources?.find((s) => (s.source || 'No source') === row.source)?.source ?? '';
              setDrill({
                label: String(row.source),
                filter: `&source=${encodeURIComponent(source)}`,
              });
            }}
          />
        </ReportSection>
        <ReportSection title="Uncontacted leads" csvHref={csvHref('uncontacted', query)}>
          <PeopleList people={waiting} />
        </ReportSection>
        <ReportSection title="Pipeline value by stage" csvHref={csvHref('pipeline', query)}>
          <ReportChart
            title="Pipeline value by stage"
            rows={
              (stages ?? []).map((s) => ({
                ...s,
                stage: `${s.pipelineName}: ${s.stageName}`,
              })) as never
            }
            labelKey="stage"
            series={[{ key: 'value', label: 'Value', format: (v) => money(v ?? 0) }]}
          />
        </ReportSection>
        <ReportSection wide title="Activity per agent" csvHref={csvHref('agentActivity', query)}>
          <ReportChart
            title="Activity per agent"
            rows={(agents ?? []) as never}
            labelKey="name"
            stacked
            series={[
              { key: 'calls', label: 'Calls' },
              { key: 'textMessages', label: 'Texts' },
              { key: 'emails', label: 'Emails' },
              { key: 'notes', label: 'Notes' },
              { key: 'appointments', label: 'Appointments' },
              { key: 'tasksCompleted', label: 'Tasks done' },
            ]}
          />
        </ReportSection>
        <ReportSection wide title="Email campaigns" csvHref={csvHref('campaigns', query)}>
          <ReportChart
            title="Email campaigns"
            rows={campaignRows(campaigns ?? []) as never}
            labelKey="label"
            series={[
              { key: 'sends', label: 'Sent' },
              { key: 'opens', label: 'Opens' },
              { key: 'clicks', label: 'Clicks' },
              { key: 'unsubscribes', label: 'Unsubscribes', tableOnly: true },
              { key: 'bounces', label: 'Bounces', tableOnly: true },
            ]}
          />
        </ReportSection>
      </Box>
    </Box>
  );
}
