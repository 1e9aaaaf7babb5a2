import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  LinearProgress,
  MenuItem,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  cancelSend,
  isActive,
  listSmartLists,
  sendCampaign,
  type PersonOption,
  type SendProgress,
} from './api';
import { PeoplePicker } from './PersonPicker';
import { ConfirmSend, FromLine, TestSend, useRecipientCount, type Target } from './SendChecks';

const when = (iso: string) => new Date(iso).toLocaleString();
const recipients = (n: number) => `${n} recipient${n === 1 ? '' : 's'}`;

function Progress({ send, onCancel }: { send: SendProgress; onCancel: () => void }) {
  const done = send.total - send.pending;
  const percent = send.total ? Math.round((100 * done) / send.total) : 100;
  const line =
    send.status === 'scheduled'
      ? `Scheduled for ${when(send.sendAt)} to ${recipients(send.total)}`
      : send.status === 'sending'
        ? `Sending: ${done} of ${send.total} handled`
        : send.status === 'cancelled'
          ? `Cancelled: ${send.sent} sent, ${send.cancelled} not sent`
          : `Sent to ${send.sent} of ${recipients(send.total)}`;
  const extra = [
    send.skipped && `${send.skipped} skipped (no email, Trash or deleted)`,
    send.dropped && `${send.dropped} dropped (unsubscribed or bounced before)`,
    send.hardBounced + send.softBounced && `${send.hardBounced + send.softBounced} bounced`,
  ].filter(Boolean);
  return (
    <Stack spacing={1}>
      <Typography role="status">{line}</Typography>
      {isActive(send) && (
        <LinearProgress variant="determinate" value={percent} aria-label="Send progress" />
      )}
      {extra.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {extra.join(' · ')}
        </Typography>
      )}
      {isActive(send) && (
        <Box>
          <Button color="error" variant="outlined" onClick={onCancel}>
            Cancel send
          </Button>
        </Box>
      )}
    </Stack>
  );
}

/** Whom to send to (a smart list or chosen people), now or at a time; then the send's progress. */
export function SendPanel({
  campaignId,
  send,
  onChange,
  previewPerson,
}: {
  campaignId: number;
  send?: SendProgress;
  onChange: () => void;
  /** The preview's person: a test is merged for them. */
  previewPerson: PersonOption | null;
}) {
  const lists = useQuery({ queryKey: ['smartLists'], queryFn: listSmartLists });
  const [target, setTarget] = useState<'list' | 'people'>('list');
  const [listId, setListId] = useState('');
  const [people, setPeople] = useState<PersonOption[]>([]);
  const [timing, setTiming] = useState<'now' | 'later'>('now');
  const [sendAt, setSendAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const chosen: Target | null =
    target === 'list'
      ? listId
        ? { smartListId: Number(listId) }
        : null
      : people.length
        ? { personIds: people.map((p) => p.id) }
        : null;
  const count = useRecipientCount(campaignId, isActive(send) ? null : chosen);

  async function act(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      onChange();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (count.data) setConfirming(true);
  }
  function confirmed() {
    setConfirming(false);
    const body = {
      ...(target === 'list'
        ? { smartListId: Number(listId) }
        : { personIds: people.map((p) => p.id) }),
      ...(timing === 'later' && sendAt ? { sendAt: new Date(sendAt).toISOString() } : {}),
    };
    void act(() => sendCampaign(campaignId, body));
  }
  const recipients = count.data?.recipients ?? 0;
  const ready = chosen !== null && recipients > 0 && (timing === 'now' || sendAt !== '');
  const countLine = !chosen
    ? null
    : count.isPending
      ? 'Counting recipients…'
      : count.error
        ? `Could not count the recipients: ${(count.error as Error).message}`
        : recipients === 0
          ? 'Nobody to send to: the list finds no one you can see'
          : `${recipients.toLocaleString()} ${recipients === 1 ? 'recipient' : 'recipients'}`;

  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="send-heading">
      <Stack spacing={2}>
        <Typography id="send-heading" variant="h6" component="h2">
          Send
        </Typography>
        {send && <Progress send={send} onCancel={() => void act(() => cancelSend(campaignId))} />}
        {!isActive(send) && (
          <Stack component="form" spacing={2} onSubmit={submit}>
            <FromLine />
            <FormControl>
              <FormLabel id="recipients-label">Recipients</FormLabel>
              <RadioGroup
                row
                aria-labelledby="recipients-label"
                value={target}
                onChange={(e) => setTarget(e.target.value as 'list' | 'people')}
              >
                <FormControlLabel value="list" control={<Radio />} label="A smart list" />
                <FormControlLabel value="people" control={<Radio />} label="Chosen people" />
              </RadioGroup>
            </FormControl>
            {target === 'list' ? (
              <TextField
                select
                label="Smart list"
                value={listId}
                onChange={(e) => setListId(e.target.value)}
                helperText="Everyone the list finds for you when you press Send"
              >
                {lists.data?.length === 0 && (
                  <MenuItem value="" disabled>
                    No smart lists yet: save a search on the People list
                  </MenuItem>
                )}
                {lists.data?.map((l) => (
                  <MenuItem key={l.id} value={String(l.id)}>
                    {l.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : (
              <PeoplePicker label="People" value={people} onChange={setPeople} />
            )}
            <FormControl>
              <FormLabel id="timing-label">When</FormLabel>
              <RadioGroup
                row
                aria-labelledby="timing-label"
                value={timing}
                onChange={(e) => setTiming(e.target.value as 'now' | 'later')}
              >
                <FormControlLabel value="now" control={<Radio />} label="Now" />
                <FormControlLabel value="later" control={<Radio />} label="Later" />
              </RadioGroup>
            </FormControl>
            {timing === 'later' && (
              <TextField
                type="datetime-local"
                label="Send at"
                value={sendAt}
                onChange={(e) => setSendAt(e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
                sx={{ maxWidth: 280 }}
              />
            )}
            {countLine ? (
              <Typography
                role="status"
                color={count.error ? 'error' : recipients ? 'text.primary' : 'text.secondary'}
                sx={{ fontWeight: recipients ? 600 : 400 }}
              >
                {countLine}
              </Typography>
            ) : null}
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <Button type="submit" variant="contained" disabled={!ready || busy}>
                {timing === 'now' ? 'Send now' : 'Schedule send'}
              </Button>
            </Stack>
            <ConfirmSend
              open={confirming}
              count={recipients}
              from={count.data?.from ?? null}
              later={timing === 'later' && sendAt ? `on ${when(sendAt)}` : null}
              onCancel={() => setConfirming(false)}
              onConfirm={confirmed}
            />
          </Stack>
        )}
        {!isActive(send) && <TestSend campaignId={campaignId} person={previewPerson} />}
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
    </Paper>
  );
}
