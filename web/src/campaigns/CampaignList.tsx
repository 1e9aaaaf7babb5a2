import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Link,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import { getCampaign, getStats, isActive, listCampaigns, percent, type Campaign } from './api';
import { SendStatus } from './SendStatus';

const wide = { display: { xs: 'none', md: 'table-cell' } };
const notOnPhone = { display: { xs: 'none', sm: 'table-cell' } };

/** One campaign's row; its send progress and statistics load (and refresh while sending) on their own. */
function CampaignRow({ campaign }: { campaign: Campaign }) {
  const detail = useQuery({
    queryKey: ['campaign', campaign.id],
    queryFn: () => getCampaign(campaign.id),
    refetchInterval: (q) => (isActive(q.state.data?.lastSend) ? 2000 : 15000),
  });
  const send = detail.data?.lastSend;
  const stats = useQuery({
    queryKey: ['campaignStats', campaign.id],
    queryFn: () => getStats(campaign.id),
    refetchInterval: isActive(send) ? 2000 : 15000,
  });
  const s = stats.data;
  const cell = (value: string | number | undefined) =>
    value === undefined ? <Skeleton width={32} /> : value;
  return (
    <TableRow hover>
      <TableCell>
        <Link component={RouterLink} to={`/campaigns/${campaign.id}`} sx={{ fontWeight: 600 }}>
          {campaign.name || `Campaign ${campaign.id}`}
        </Link>
        <Typography
          variant="body2"
          color="text.secondary"
          noWrap
          sx={{ maxWidth: 320, display: { xs: 'none', sm: 'block' } }}
        >
          {campaign.subject}
        </Typography>
      </TableCell>
      <TableCell>
        {detail.data ? <SendStatus send={send} /> : <Skeleton width={56} />}
        {campaign.origin !== 'Hearth' && (
          <Typography variant="body2" color="text.secondary">
            via {campaign.origin}
          </Typography>
        )}
      </TableCell>
      <TableCell align="right" sx={notOnPhone}>
        {cell(s?.sends)}
      </TableCell>
      <TableCell align="right">{cell(s && percent(s.rates.openRate))}</TableCell>
      <TableCell align="right" sx={wide}>
        {cell(s && percent(s.rates.clickRate))}
      </TableCell>
      <TableCell align="right" sx={wide}>
        {cell(s?.bounces)}
      </TableCell>
      <TableCell align="right" sx={wide}>
        {cell(s?.unsubscribes)}
      </TableCell>
    </TableRow>
  );
}

/** Every campaign (built-in and third-party) with its statistics, newest first. */
export function CampaignList() {
  const list = useQuery({ queryKey: ['campaigns'], queryFn: () => listCampaigns() });
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1100 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <PageHeading>Campaigns</PageHeading>
        <Button variant="contained" component={RouterLink} to="/campaigns/new">
          New campaign
        </Button>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Email campaigns sent by Hearth and by your marketing tools, with their combined statistics.
      </Typography>
      {list.error && <Alert severity="error">{(list.error as Error).message}</Alert>}
      <Paper sx={{ overflowX: 'auto' }}>
        <Table aria-label="Campaigns">
          <TableHead>
            <TableRow>
              <TableCell>Campaign</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right" sx={notOnPhone}>
                Delivered
              </TableCell>
              <TableCell align="right">Opened</TableCell>
              <TableCell align="right" sx={wide}>
                Clicked
              </TableCell>
              <TableCell align="right" sx={wide}>
                Bounces
              </TableCell>
              <TableCell align="right" sx={wide}>
                Unsubscribes
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.items.map((campaign) => (
              <CampaignRow key={campaign.id} campaign={campaign} />
            ))}
            {list.data?.items.length === 0 && (
              <TableRow>
                <TableCell colSpan={7}>
                  No campaigns yet. Start one from an email template with New campaign.
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
    </Box>
  );
}
