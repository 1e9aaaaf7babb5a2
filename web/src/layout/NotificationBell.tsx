import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import {
  Alert,
  Badge,
  Box,
  Button,
  IconButton,
  List,
  ListItemButton,
  Popover,
  Stack,
  Typography,
} from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { apiFetch } from '../api/http';
import { fetchPage } from '../api/lists';
import { visuallyHidden } from './visuallyHidden';
import type { Notification } from '../api/types';

/** Without the event stream (a proxy that buffers it), the unread count is asked for this often. */
const POLL_MS = 30_000;

/**
 * The unread state pushed by GET /v1/notifications/stream: a new lead rings the bell within
 * seconds. While the stream is open there is no polling; EventSource reopens it by itself (the
 * server ends each after ten minutes), and polling covers the time it is down.
 */
function useUnreadStream(): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    const source = new EventSource('/v1/notifications/stream');
    // A (re)opened stream's first event is often what the bell shows already; each later one
    // means something changed (a notification read and another made leave the count the same).
    let first = true;
    source.addEventListener('open', () => {
      first = true;
      setLive(true);
    });
    source.addEventListener('error', () => setLive(false));
    source.addEventListener('unread', (event) => {
      const { unread } = JSON.parse((event as MessageEvent<string>).data) as { unread: number };
      const shown = queryClient.getQueryData<{ total: number }>(['notifications', 'unread']);
      if (!first || unread !== shown?.total)
        void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      first = false;
    });
    return () => source.close();
  }, [queryClient]);
  return live;
}

const ago = (iso: string) => {
  const minutes = Math.round((Date.now() - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  return new Date(iso).toLocaleDateString();
};

function NotificationList({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['notifications', 'latest'],
    queryFn: () => fetchPage<Notification>('/v1/notifications?limit=10'),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notifications'] });
  const open = async (item: Notification) => {
    onDone();
    navigate(`/people/${item.personId}`);
    if (!item.read)
      await apiFetch(`/v1/notifications/${item.id}`, { method: 'PUT', body: { read: true } });
    void refresh();
  };
  const heading = useRef<HTMLHeadingElement>(null);
  const markAll = async () => {
    // The button disables itself once all are read: focus moves to the panel's heading first, so
    // it stays in the panel and Escape still closes it.
    heading.current?.focus();
    await apiFetch('/v1/notifications/markAllRead', { method: 'POST', body: {} });
    void refresh();
  };
  const items = list.data?.items ?? [];
  return (
    <Box sx={{ width: 'min(380px, calc(100vw - 16px))' }}>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}
      >
        <Typography
          ref={heading}
          tabIndex={-1}
          variant="subtitle1"
          component="h2"
          sx={{ fontWeight: 700, outline: 'none' }}
        >
          Notifications
        </Typography>
        <Button onClick={() => void markAll()} disabled={!items.some((i) => !i.read)}>
          Mark all read
        </Button>
      </Stack>
      {list.error ? (
        <Alert
          severity="error"
          sx={{ mx: 1, mb: 1 }}
          action={
            <Button color="inherit" onClick={() => void list.refetch()}>
              Retry
            </Button>
          }
        >
          Notifications could not be loaded: {(list.error as Error).message}
        </Alert>
      ) : null}
      {list.isPending ? (
        <Typography sx={{ px: 2, pb: 2 }} color="text.secondary">
          Loading…
        </Typography>
      ) : items.length === 0 && !list.error ? (
        <Typography sx={{ px: 2, pb: 2 }} color="text.secondary">
          Nothing new. New leads and hand-overs show up here.
        </Typography>
      ) : (
        <List component="div" dense disablePadding sx={{ pb: 1 }}>
          {items.map((item) => (
            <ListItemButton
              key={item.id}
              onClick={() => void open(item)}
              sx={{ alignItems: 'flex-start', gap: 1.5, minHeight: 56 }}
            >
              <Box
                aria-hidden
                sx={{
                  mt: 1,
                  width: 8,
                  height: 8,
                  borderRadius: '50%',
                  flex: 'none',
                  bgcolor: item.read ? 'transparent' : 'primary.main',
                }}
              />
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: item.read ? 400 : 700 }}>
                  {item.read ? null : (
                    <Box component="span" sx={visuallyHidden}>
                      Unread:{' '}
                    </Box>
                  )}
                  {item.title}
                </Typography>
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ overflowWrap: 'anywhere' }}
                >
                  {item.message}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {ago(item.created)}
                </Typography>
              </Box>
            </ListItemButton>
          ))}
        </List>
      )}
    </Box>
  );
}

/** The bell in the top bar: the unread count, and the latest notifications, each opening its person. */
export function NotificationBell() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const live = useUnreadStream();
  const unread = useQuery({
    queryKey: ['notifications', 'unread'],
    queryFn: () => fetchPage<Notification>('/v1/notifications?unread=true&limit=1'),
    refetchInterval: live ? false : POLL_MS,
  });
  const count = unread.data?.total ?? 0;
  const name = count ? `Notifications, ${count} unread` : 'Notifications';
  return (
    <>
      <IconButton
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="dialog"
        aria-label={name}
        sx={{ width: 48, height: 48 }}
      >
        <Badge aria-hidden badgeContent={count || null} color="error" max={99}>
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': 'Notifications' } }}
      >
        {anchor ? <NotificationList onDone={() => setAnchor(null)} /> : null}
      </Popover>
    </>
  );
}
