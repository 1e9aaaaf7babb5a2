import { Chip } from '@mui/material';
import type { SendProgress } from './api';

/** Soft backgrounds with dark text: each pair passes WCAG AA contrast. */
const STYLES: Record<string, { label: string; bg: string; fg: string } | undefined> = {
  scheduled: { label: 'Scheduled', bg: '#e3f0fb', fg: '#0b4a80' },
  sending: { label: 'Sending', bg: '#fdf0dc', fg: '#7a4100' },
  done: { label: 'Sent', bg: '#e3f3e7', fg: '#1b5e2f' },
  cancelled: { label: 'Cancelled', bg: '#ececec', fg: '#3d3d3d' },
};

/** The latest send's state as a small chip; "Draft" before any send. */
export function SendStatus({ send }: { send?: SendProgress }) {
  if (!send) return <Chip size="small" variant="outlined" label="Draft" />;
  // A status this screen does not know yet is shown as the API names it.
  const style = STYLES[send.status] ?? { label: send.status, bg: '#ececec', fg: '#3d3d3d' };
  return (
    <Chip
      size="small"
      label={style.label}
      sx={{ bgcolor: style.bg, color: style.fg, fontWeight: 600 }}
    />
  );
}
