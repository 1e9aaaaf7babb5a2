import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';
import { Link } from 'react-router-dom';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  Link as MuiLink,
  Skeleton,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { UsageChart } from './UsageChart';
import type { System, SystemUsage } from '../api/types';

export type RegisteredSystem = System;

type Usage = SystemUsage;

export const SYSTEMS_KEY = ['admin', 'systems'];

export function useSystems() {
  return useQuery({
    queryKey: SYSTEMS_KEY,
    queryFn: () => fetchAll<RegisteredSystem>('/v1/systems?limit=100'),
  });
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ minWidth: 96 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography sx={{ fontWeight: 700, fontSize: '1.15rem' }}>{value}</Typography>
    </Box>
  );
}

function SystemCard({ system, hours }: { system: RegisteredSystem; hours: number }) {
  const { permissions } = usePermissions();
  const { data: usage, error } = useQuery({
    queryKey: ['admin', 'systemUsage', system.id, hours],
    queryFn: async () =>
      (await apiFetch(`/v1/systems/${system.id}/usage?hours=${hours}`)).json as Usage,
    refetchInterval: 60_000,
  });
  const limit = usage?.limits.withSystemKey.global;
  const headingId = `system-${system.id}`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId}>
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'baseline' } }}
        >
          <Typography id={headingId} variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {system.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Registered {new Date(system.created).toLocaleDateString()} ·{' '}
            {permissions === 'Owner' ? (
              <MuiLink
                component={Link}
                to={`/admin/webhooks?system=${encodeURIComponent(system.name)}`}
              >
                {system.webhooks === 1 ? '1 webhook' : `${system.webhooks} webhooks`}
              </MuiLink>
            ) : (
              `${system.webhooks} webhooks`
            )}
          </Typography>
        </Stack>
        {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
        {usage ? (
          <>
            <Stack direction="row" spacing={3} useFlexGap sx={{ my: 1.5, flexWrap: 'wrap' }}>
              <Figure label="Requests" value={usage.totalRequests.toLocaleString()} />
              <Figure
                label="Refused (429)"
                value={`${usage.rateLimitedRequests.toLocaleString()} · ${usage.percentRateLimited}%`}
              />
              <Figure
                label="Busiest hour"
                value={
                  usage.peakHour
                    ? new Date(usage.peakHour.hour).toLocaleTimeString([], {
                        hour: '2-digit',
                        minute: '2-digit',
                      })
                    : '—'
                }
              />
              <Figure
                label={`Limit per ${usage.window} s`}
                value={!usage.enforced ? 'off' : limit == null ? 'none' : String(limit)}
              />
            </Stack>
            {usage.enforced ? null : (
              <Alert severity="info" sx={{ mb: 1 }}>
                Rate limiting is turned off on this server (HEARTH_RATE_LIMITS=off), so requests are
                not being counted.
              </Alert>
            )}
            <UsageChart hours={usage.hours} label={`Requests of ${system.name} per hour`} />
            <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
              <Chip size="small" label="Served" sx={{ bgcolor: 'secondary.main', color: '#fff' }} />
              <Chip size="small" label="Refused" sx={{ bgcolor: 'error.main', color: '#fff' }} />
            </Stack>
          </>
        ) : (
          <Skeleton variant="rounded" height={180} sx={{ mt: 2 }} />
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The registered systems (the operator registers them with `admin create-system`) and the
 * rate-limit usage of each, hour by hour. Limits and usage are the system's across the installation.
 */
export function SystemsScreen() {
  const [hours, setHours] = useState(24);
  const { data: systems, error, isPending } = useSystems();
  return (
    <>
      <PageHeading>Systems</PageHeading>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <Typography color="text.secondary">
          Websites, lead sources and dialers that send to Hearth, and their rate-limit usage.
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={hours}
          onChange={(_e, value: number | null) => value && setHours(value)}
          aria-label="Period"
          color="primary"
          sx={{ '& .MuiToggleButton-root:not(.Mui-selected)': { color: 'text.primary' } }}
        >
          <ToggleButton value={24}>24 hours</ToggleButton>
          <ToggleButton value={168}>7 days</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
      {!isPending && systems?.length === 0 ? (
        <Alert severity="info">
          No system is registered yet. The operator registers one with{' '}
          <code>npm run admin -- create-system --name MyWebsite</code>.
        </Alert>
      ) : null}
      <Stack spacing={2}>
        {(systems ?? []).map((system) => (
          <SystemCard key={system.id} system={system} hours={hours} />
        ))}
      </Stack>
    </>
  );
}
