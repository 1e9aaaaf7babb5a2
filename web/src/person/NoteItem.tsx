import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { Box, Button, Chip, Stack, TextField, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { currentSession } from '../api/session';
import { plainText, when } from './format';
import type { TimelineRecord } from './timeline.data';
import type { Note } from '../api/types';

type FullNote = TimelineRecord & Pick<Note, 'reactions' | 'threadedReplies'>;

const EMOJI = ['👍', '❤️', '🎉', '👀'];

/** A note with its reactions (toggle one) and threaded replies (read and add). */
export function NoteItem({ note }: { note: TimelineRecord }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [replying, setReplying] = useState(false);
  const key = ['note', note.id];
  const { data } = useQuery({
    queryKey: key,
    queryFn: async () =>
      (await apiFetch(`/v1/notes/${note.id}?includeReactions=true&includeThreadedReplies=true`))
        .json as FullNote,
  });
  const reactions = data?.reactions ?? [];
  const replies = data?.threadedReplies ?? [];

  async function run(action: () => Promise<unknown>) {
    try {
      await action();
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  }

  /** Toggles the signed-in user's reaction. */
  function react(emoji: string) {
    const me = currentSession()?.user.id;
    const mine = reactions.find((r) => r.body === emoji && r.userId === me);
    return run(() =>
      mine
        ? apiFetch(`/v1/reactions/${mine.id}`, { method: 'DELETE' })
        : apiFetch(`/v1/reactions/Note/${note.id}`, { method: 'POST', body: { body: emoji } }),
    );
  }

  function reply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = String(new FormData(form).get('reply') ?? '').trim();
    if (!body) return;
    return run(async () => {
      await apiFetch('/v1/threadedReplies', {
        method: 'POST',
        body: { refType: 'Note', refId: note.id, body },
      });
      form.reset();
      setReplying(false);
    });
  }

  const counts = EMOJI.map((emoji) => ({
    emoji,
    count: reactions.filter((r) => r.body === emoji).length,
  }));
  return (
    <Box>
      {note.subject ? (
        <Typography sx={{ fontWeight: 600 }}>{String(note.subject)}</Typography>
      ) : null}
      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{plainText(note.body, note.isHtml)}</Typography>
      <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap' }} useFlexGap>
        {counts.map(({ emoji, count }) => (
          <Chip
            key={emoji}
            size="small"
            variant={count ? 'filled' : 'outlined'}
            label={count ? `${emoji} ${count}` : emoji}
            onClick={() => react(emoji)}
            aria-label={`React ${emoji}`}
          />
        ))}
        <Button size="small" onClick={() => setReplying((open) => !open)}>
          Reply
        </Button>
      </Stack>
      {replies.length ? (
        <Box
          component="ul"
          sx={{ listStyle: 'none', pl: 2, ml: 1, mt: 1, borderLeft: 2, borderColor: 'divider' }}
        >
          {replies.map((r) => (
            <li key={r.id}>
              <Typography variant="body2">
                <strong>{r.userName}</strong> · {when(r.created)}
              </Typography>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mb: 1 }}>
                {r.body}
              </Typography>
            </li>
          ))}
        </Box>
      ) : null}
      {replying ? (
        <Box component="form" onSubmit={reply} sx={{ display: 'flex', gap: 1, mt: 1 }}>
          <TextField name="reply" label="Reply" size="small" fullWidth autoFocus />
          <Button type="submit" variant="outlined" size="small">
            Send
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
