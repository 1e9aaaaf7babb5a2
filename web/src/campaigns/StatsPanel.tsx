import { Box, Paper, Typography } from '@mui/material';
import { percent, type Stats } from './api';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function Figure({ label, value, note }: { label: string; value: number | string; note?: string }) {
  return (
    <Box
      role="group"
      aria-label={label}
      sx={{ p: 1.5, borderRadius: 1, bgcolor: 'background.default', minWidth: 0 }}
    >
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
      <Typography sx={{ fontSize: 26, fontWeight: 700, lineHeight: 1.3 }}>{value}</Typography>
      <Typography variant="body2" color="text.secondary" noWrap>
        {note ?? '\u00a0'}
      </Typography>
    </Box>
  );
}

/** Built-in and third-party events of the campaign, combined. */
export function StatsPanel({ stats }: { stats?: Stats }) {
  const s = stats;
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="stats-heading">
      <Typography id="stats-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
        Statistics
      </Typography>
      {!s ? (
        <Typography color="text.secondary">Loading statistics…</Typography>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 1.5,
            gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, 1fr)' },
          }}
        >
          <Figure label="Delivered" value={s.sends} />
          <Figure
            label="Opened"
            value={s.uniqueOpens}
            note={`${percent(s.rates.openRate)} · ${plural(s.opens, 'open')}`}
          />
          <Figure
            label="Clicked"
            value={s.uniqueClicks}
            note={`${percent(s.rates.clickRate)} · ${plural(s.clicks, 'click')}`}
          />
          <Figure label="Bounced" value={s.bounces} note={percent(s.rates.bounceRate)} />
          <Figure label="Unsubscribed" value={s.unsubscribes} />
          <Figure label="Spam reports" value={s.spamReports} />
          <Figure label="Dropped" value={s.dropped} note="suppressed addresses" />
        </Box>
      )}
    </Paper>
  );
}
