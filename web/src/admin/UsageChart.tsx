import { useEffect, useRef, useState } from 'react';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, useTheme } from '@mui/material';

import type { SystemUsage } from '../api/types';

export type UsageHour = Pick<
  SystemUsage['hours'][number],
  'hour' | 'totalRequests' | 'rateLimitedRequests'
>;

const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 26, left: 44 };

/** The width the chart has on screen (it draws in pixels, so its text never scales down). */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** 1, 2, 5, 10, 20, 50… : the smallest at or above `value` (the chart's top line). */
function niceCeiling(value: number): number {
  if (value <= 5) return 5;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
const day = (iso: string) => new Date(iso).toLocaleDateString([], { weekday: 'short' });

/**
 * Requests per hour as stacked bars (served, and refused by the rate limit), drawn as plain SVG:
 * no chart library, nothing from another host. The same figures follow as a table for screen
 * readers and for anyone who wants the numbers.
 */
export function UsageChart({ hours, label }: { hours: UsageHour[]; label: string }) {
  const theme = useTheme();
  const [ref, width] = useWidth<HTMLDivElement>();
  const top = niceCeiling(Math.max(0, ...hours.map((h) => h.totalRequests)));
  const plotWidth = Math.max(50, width - PAD.left - PAD.right);
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, hours.length);
  const barWidth = Math.max(1, slot * 0.7);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const labelEvery = Math.max(1, Math.ceil(hours.length / Math.max(2, Math.floor(plotWidth / 56))));
  const multiDay = hours.length > 24;
  const total = hours.reduce((sum, h) => sum + h.totalRequests, 0);
  const refused = hours.reduce((sum, h) => sum + h.rateLimitedRequests, 0);
  const summary = `${label}: ${total} requests in ${hours.length} hours, ${refused} refused by the rate limit`;
  return (
    <Box ref={ref} sx={{ width: '100%' }}>
      <svg width={width} height={HEIGHT} role="img" aria-label={summary}>
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={PAD.left + plotWidth}
              y1={y(tick)}
              y2={y(tick)}
              stroke={theme.palette.divider}
            />
            <text
              x={PAD.left - 6}
              y={y(tick) + 4}
              textAnchor="end"
              fontSize={11}
              fill={theme.palette.text.secondary}
            >
              {tick}
            </text>
          </g>
        ))}
        {hours.map((h, i) => {
          const x = PAD.left + i * slot + (slot - barWidth) / 2;
          const served = h.totalRequests - h.rateLimitedRequests;
          return (
            <g key={h.hour}>
              <title>{`${day(h.hour)} ${clock(h.hour)}: ${h.totalRequests} requests, ${h.rateLimitedRequests} refused`}</title>
              <rect
                x={x}
                y={y(served)}
                width={barWidth}
                height={y(0) - y(served)}
                fill={theme.palette.secondary.main}
                rx={1}
              />
              <rect
                x={x}
                y={y(h.totalRequests)}
                width={barWidth}
                height={y(served) - y(h.totalRequests)}
                fill={theme.palette.error.main}
              />
              {i % labelEvery === 0 ? (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  fontSize={11}
                  fill={theme.palette.text.secondary}
                >
                  {multiDay ? day(h.hour) : clock(h.hour)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <Box component="details" sx={{ mt: 0.5, typography: 'body2' }}>
        <summary>Hourly figures</summary>
        <Table size="small" aria-label={`${label}, hour by hour`}>
          <TableHead>
            <TableRow>
              <TableCell>Hour</TableCell>
              <TableCell align="right">Requests</TableCell>
              <TableCell align="right">Refused</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {hours
              .filter((h) => h.totalRequests > 0)
              .map((h) => (
                <TableRow key={h.hour}>
                  <TableCell>
                    {day(h.hour)} {clock(h.hour)}
                  </TableCell>
                  <TableCell align="right">{h.totalRequests}</TableCell>
                  <TableCell align="right">{h.rateLimitedRequests}</TableCell>
                </TableRow>
              ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
