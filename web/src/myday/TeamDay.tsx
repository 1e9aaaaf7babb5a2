import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import {
  Box,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { QueryState } from '../layout/QueryState';
import { periodQuery, useReport } from '../reports/reportsApi';
import type { TeamAgentRow } from '../api/types';

const COLUMNS = [
  { key: 'uncontacted', label: 'Uncontacted' },
  { key: 'overdueTasks', label: 'Overdue tasks' },
  { key: 'tasksDueToday', label: 'Due today' },
  { key: 'newLeads', label: 'New leads' },
] as const;

/**
 * My day's team view for a team leader (and Owner, Admin): per agent, the last 30 days' new leads
 * nobody has contacted yet and the open tasks overdue or due today, the agents needing attention
 * first. Hidden for someone who leads no team (the report answers no agents).
 */
export function TeamDay() {
  const query = useMemo(() => periodQuery(30, Date.now()), []);
  const report = useReport<{ agents: TeamAgentRow[] }>('team', query);
  const agents = [...(report.data?.agents ?? [])].sort(
    (a, b) =>
      b.uncontacted + b.overdueTasks - (a.uncontacted + a.overdueTasks) ||
      a.name.localeCompare(b.name),
  );
  // nothing while it loads: most people lead no team, and the panel would flash for them
  if (report.isPending || (report.isSuccess && agents.length === 0)) return null;
  const attention = agents.filter((a) => a.uncontacted + a.overdueTasks > 0).length;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="panel-team" sx={{ p: 2 }}>
      <Typography id="panel-team" variant="h6" component="h2">
        My team
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
        {report.isSuccess
          ? `${attention} of ${agents.length} agents have uncontacted leads or overdue tasks · leads of the last 30 days`
          : 'Leads waiting and overdue tasks per agent'}
      </Typography>
      <QueryState query={report} what="the team" empty="" isEmpty={false} />
      {agents.length ? (
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="group" aria-label="My team: table">
          <Table
            size="small"
            aria-label="My team: per agent"
            sx={{ '& th, & td': { px: { xs: 0.75, sm: 2 } } }}
          >
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  Agent
                </TableCell>
                {COLUMNS.map((c) => (
                  <TableCell key={c.key} component="th" scope="col" align="right">
                    {c.label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {agents.map((a) => (
                <TableRow key={a.userId}>
                  <TableCell component="th" scope="row">
                    {a.name}
                  </TableCell>
                  {COLUMNS.map((c) => (
                    <TableCell
                      key={c.key}
                      align="right"
                      sx={
                        a[c.key] > 0 && c.key !== 'newLeads' && c.key !== 'tasksDueToday'
                          ? { color: 'error.main', fontWeight: 600 }
                          : undefined
                      }
                    >
                      {a[c.key].toLocaleString()}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}
      <Typography variant="body2" sx={{ mt: 1 }}>
        <Link to="/reports">Open reports</Link> for the leads behind each figure.
      </Typography>
    </Paper>
  );
}
