import type { ReactNode } from 'react';
import { BarChart } from '@mui/x-charts/BarChart';
import {
  Box,
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';

export interface ChartSeries {
  key: string;
  label: string;
  format?: (value: number | null) => string;
  /** in the table only (a percentage among counts would flatten their bars) */
  tableOnly?: boolean;
}

type Row = Record<string, string | number | null>;

const plain = (value: number | null) => (value === null ? '—' : value.toLocaleString());

/** A report's section: its heading, a CSV link, a bar chart and the same figures as a table. */
export function ReportSection({
  title,
  csvHref,
  wide,
  children,
}: {
  title: string;
  csvHref?: string;
  /** across the whole grid (a table with many columns) */
  wide?: boolean;
  children: ReactNode;
}) {
  const id = `report-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: 2, minWidth: 0, gridColumn: wide ? '1 / -1' : undefined }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography id={id} variant="h6" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {csvHref ? (
          <Button
            size="small"
            variant="outlined"
            href={csvHref}
            download
            aria-label={`Download CSV: ${title}`}
          >
            Download CSV
          </Button>
        ) : null}
      </Box>
      {children}
    </Paper>
  );
}

/**
 * Horizontal bars (names stay readable on a phone) drawn by MUI X Charts; the chart is one image
 * to assistive technology and the table after it holds every figure, with a button per row for
 * the people behind it when `onSelect` is given (the chart's bars do the same on click).
 */
export function ReportChart({
  title,
  rows,
  labelKey,
  series,
  onSelect,
  stacked,
}: {
  title: string;
  rows: Row[];
  labelKey: string;
  series: ChartSeries[];
  onSelect?: (row: Row) => void;
  stacked?: boolean;
}) {
  if (rows.length === 0)
    return <Typography color="text.secondary">Nothing in this period.</Typography>;
  const charted = series.filter((s) => !s.tableOnly);
  return (
    <>
      <Box role="img" aria-label={`${title}: bar chart; the table below holds its figures`}>
        <BarChart
          dataset={rows}
          layout="horizontal"
          height={Math.max(140, rows.length * (stacked ? 34 : 26 * charted.length) + 70)}
          yAxis={[{ scaleType: 'band', dataKey: labelKey, width: 120 }]}
          xAxis={[
            {
              valueFormatter: (v: number) => (charted[0].format ?? plain)(v),
              // counts: whole ticks only
              ...(charted[0].format ? {} : { tickMinStep: 1 }),
            },
          ]}
          series={charted.map((s) => ({
            dataKey: s.key,
            label: s.label,
            valueFormatter: (v: number | null) => (s.format ?? plain)(v),
            ...(stacked ? { stack: 'total' } : {}),
          }))}
          onItemClick={onSelect ? (_e, item) => onSelect(rows[item.dataIndex]) : undefined}
          // room for the last tick's label ("42 min", "$700,000") at the right edge
          margin={{ right: 32 }}
        />
      </Box>
      {/* Focusable: a keyboard can scroll a table wider than a phone. */}
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="group" aria-label={`${title}: table`}>
        <Table size="small" aria-label={`${title}: figures`}>
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col" />
              {series.map((s) => (
                <TableCell key={s.key} component="th" scope="col" align="right">
                  {s.label}
                </TableCell>
              ))}
              {onSelect ? <TableCell component="th" scope="col" /> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={String(row[labelKey])}>
                <TableCell component="th" scope="row">
                  {row[labelKey]}
                </TableCell>
                {series.map((s) => (
                  <TableCell key={s.key} align="right">
                    {(s.format ?? plain)(row[s.key] as number | null)}
                  </TableCell>
                ))}
                {onSelect ? (
                  <TableCell>
                    <Button
                      size="small"
                      onClick={() => onSelect(row)}
                      aria-label={`People: ${row[labelKey]}`}
                    >
                      People
                    </Button>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
}
