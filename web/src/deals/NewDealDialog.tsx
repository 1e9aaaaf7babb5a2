import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  MenuItem,
  Stack,
  TextField,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchAll, fetchPage } from '../api/lists';
import { currentSession } from '../api/session';
import type { Named } from '../admin/kit';
import type { PipelineStage } from '../api/types';

type Stage = Pick<PipelineStage, 'id' | 'name' | 'orderWeight'>;

/** People whose name, email or phone matches what is typed (the People list's own search). */
function usePeopleSearch(text: string): Named[] {
  const [query, setQuery] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const { data } = useQuery({
    queryKey: ['peopleSearch', query],
    queryFn: async () => {
      const search = query ? `&q=${encodeURIComponent(query)}` : '';
      return (await fetchPage<Named>(`/v1/people?fields=name&limit=20${search}`)).items;
    },
  });
  return data ?? [];
}

/** A new deal on the board's pipeline: name, stage, price, its people and its users. */
export function NewDealDialog({
  pipelineId,
  stages,
  onClose,
}: {
  pipelineId: number;
  stages: Stage[];
  onClose: () => void;
}) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const queryClient = useQueryClient();
  const notify = useNotify();
  const me = currentSession()?.user;
  const [name, setName] = useState('');
  const [stageId, setStageId] = useState<number | ''>(stages[0]?.id ?? '');
  const [price, setPrice] = useState('');
  const [people, setPeople] = useState<Named[]>([]);
  const [users, setUsers] = useState<Named[]>(me ? [{ id: me.id, name: me.name }] : []);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const found = usePeopleSearch(typed);
  const allUsers = useQuery({
    queryKey: ['users', 'all'],
    queryFn: () => fetchAll<Named>('/v1/users?limit=100'),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await apiFetch('/v1/deals', {
        method: 'POST',
        body: {
          name: name.trim(),
          stageId,
          pipelineId,
          price: price === '' ? null : Number(price),
          peopleIds: people.map((p) => p.id),
          userIds: users.map((u) => u.id),
        },
      });
      notify(`${name.trim()} added`, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['deals', pipelineId] });
      onClose();
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  const sameId = (a: Named, b: Named) => a.id === b.id;
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby="new-deal-title"
    >
      <form onSubmit={submit}>
        <DialogTitle id="new-deal-title">New deal</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Deal name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              autoFocus
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label="Stage"
                value={stageId}
                onChange={(e) => setStageId(Number(e.target.value))}
                required
                fullWidth
              >
                {stages.map((s) => (
                  <MenuItem key={s.id} value={s.id}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label="Price"
                type="number"
                value={price}
                onChange={(e) => setPrice(e.target.value)}
                fullWidth
                slotProps={{
                  htmlInput: { min: 0, step: 1000 },
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                }}
              />
            </Stack>
            <Autocomplete
              multiple
              options={found}
              value={people}
              onChange={(_e, value) => setPeople(value)}
              onInputChange={(_e, value) => setTyped(value)}
              getOptionLabel={(p) => p.name}
              isOptionEqualToValue={sameId}
              filterOptions={(options) => options}
              renderInput={(params) => (
                <TextField {...params} label="People" placeholder="Search by name, email, phone" />
              )}
            />
            <Autocomplete
              multiple
              options={allUsers.data ?? []}
              value={users}
              onChange={(_e, value) => setUsers(value)}
              getOptionLabel={(u) => u.name}
              isOptionEqualToValue={sameId}
              renderInput={(params) => <TextField {...params} label="Users" />}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy || !name.trim()}>
            Add deal
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
