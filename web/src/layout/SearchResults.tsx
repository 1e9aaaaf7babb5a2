import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import PersonIcon from '@mui/icons-material/Person';
import HandshakeIcon from '@mui/icons-material/Handshake';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import type { SearchHit } from './searchApi';
import { visuallyHidden } from './visuallyHidden';

const GROUPS = [
  { kind: 'person', label: 'People', icon: <PersonIcon fontSize="small" /> },
  { kind: 'deal', label: 'Deals', icon: <HandshakeIcon fontSize="small" /> },
  { kind: 'task', label: 'Tasks', icon: <TaskAltIcon fontSize="small" /> },
] as const;

/** The search's answer: hits grouped as People, Deals and Tasks in one listbox, or why there are none. */
export function SearchResults({
  query,
  hits,
  active,
  optionId,
  loading,
  error,
  onRetry,
  onHover,
  onOpen,
}: {
  query: string;
  hits: SearchHit[];
  active: number;
  optionId: (index: number) => string;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  onHover: (index: number) => void;
  onOpen: (hit: SearchHit) => void;
}) {
  const status =
    query.length < 2
      ? 'Type at least two letters or digits'
      : error
        ? ''
        : loading && hits.length === 0
          ? 'Searching…'
          : hits.length === 0
            ? `Nothing found for “${query}”`
            : `${hits.length} found`;
  return (
    <Box sx={{ minHeight: 56 }}>
      <Box sx={{ height: 4, mt: 1 }}>{loading ? <LinearProgress /> : null}</Box>
      {error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={onRetry}>
              Retry
            </Button>
          }
        >
          The search failed: {error.message}
        </Alert>
      ) : null}
      <Typography
        role="status"
        variant="body2"
        color="text.secondary"
        sx={hits.length ? visuallyHidden : { py: 1 }}
      >
        {status}
      </Typography>
      <Box
        component="div"
        role="listbox"
        id="global-search-results"
        aria-label="Results"
        sx={{ maxHeight: { xs: '60vh', sm: 420 }, overflowY: 'auto' }}
      >
        {GROUPS.map((group) => {
          const members = hits
            .map((hit, index) => ({ hit, index }))
            .filter(({ hit }) => hit.kind === group.kind);
          if (!members.length) return null;
          return (
            <Box key={group.kind} role="group" aria-label={group.label}>
              <Typography
                aria-hidden
                variant="overline"
                color="text.secondary"
                sx={{ display: 'block', px: 1, pt: 1 }}
              >
                {group.label}
              </Typography>
              {members.map(({ hit, index }) => (
                <Box
                  key={`${hit.kind}-${hit.id}`}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseMove={() => index !== active && onHover(index)}
                  onClick={() => onOpen(hit)}
                  sx={{
                    display: 'flex',
                    gap: 1.5,
                    alignItems: 'center',
                    minHeight: 48,
                    px: 1,
                    borderRadius: 1,
                    cursor: 'pointer',
                    bgcolor: index === active ? 'action.selected' : undefined,
                  }}
                >
                  <Box sx={{ color: 'text.secondary', display: 'flex' }}>{group.icon}</Box>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography noWrap sx={{ fontWeight: 600 }}>
                      {hit.title}
                    </Typography>
                    {hit.detail ? (
                      <Typography noWrap variant="body2" color="text.secondary">
                        {hit.detail}
                      </Typography>
                    ) : null}
                  </Box>
                </Box>
              ))}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
