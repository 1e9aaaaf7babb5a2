import { useState } from 'react';
import { useNotify, useRefresh, type RaRecord } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  ListItemText,
  Radio,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchPage } from '../api/lists';
import { usePhone } from '../admin/kit';

type Person = RaRecord;

/** Fields the user picks from one side or the other; emails, phones, addresses and tags are combined. */
const PICKED = [
  {
    field: 'name',
    label: 'Name',
    update: (p: Person) => ({ firstName: p.firstName, lastName: p.lastName }),
  },
  { field: 'stage', label: 'Stage', update: (p: Person) => ({ stageId: p.stageId }) },
  {
    field: 'assignedTo',
    label: 'Agent',
    update: (p: Person) => ({ assignedUserId: p.assignedUserId }),
  },
  { field: 'source', label: 'Source', update: (p: Person) => ({ source: p.source }) },
  { field: 'price', label: 'Price', update: (p: Person) => ({ price: p.price }) },
  {
    field: 'background',
    label: 'Background',
    update: (p: Person) => ({ background: p.background }),
  },
] as const;
const COMBINED = [
  { label: 'Emails', of: (p: Person) => (p.emails ?? []).map((e: { value: string }) => e.value) },
  { label: 'Phones', of: (p: Person) => (p.phones ?? []).map((e: { value: string }) => e.value) },
  { label: 'Tags', of: (p: Person) => p.tags ?? [] },
];

const blank = (value: unknown) => value === null || value === undefined || value === '';

/**
 * The side a field starts on: the kept person's value, unless only the other has one (the merge
 * fills empty fields from the other person, so that is what it would keep anyway).
 */
const startingSide = (field: string, keep: Person, other: Person) =>
  blank(keep[field]) && !blank(other[field]) ? 'other' : 'keep';

const shown = (value: unknown) =>
  value === null || value === undefined || value === '' ? '—' : String(value);

function Candidates({ person, onPick }: { person: Person; onPick: (p: Person) => void }) {
  const [text, setText] = useState<string>(person.lastName || person.name || '');
  const found = useQuery({
    queryKey: ['mergeCandidates', text],
    enabled: text.trim().length > 0,
    queryFn: () => fetchPage<Person>(`/v1/people?q=${encodeURIComponent(text.trim())}&limit=10`),
  });
  const others = (found.data?.items ?? []).filter((p) => p.id !== person.id);
  return (
    <>
      <TextField
        label="Find the duplicate"
        value={text}
        onChange={(e) => setText(e.target.value)}
        fullWidth
        margin="dense"
        autoFocus
      />
      {found.isError ? (
        <Typography role="alert">Could not search: {(found.error as Error).message}</Typography>
      ) : found.isPending && text.trim() ? (
        <Typography>Searching…</Typography>
      ) : others.length === 0 ? (
        <Typography>No other person matches “{text}”.</Typography>
      ) : (
        <List aria-label="Possible duplicates">
          {others.map((p) => (
            <ListItemButton key={p.id} onClick={() => onPick(p)}>
              <ListItemText
                primary={p.name || 'Unnamed person'}
                secondary={[p.emails?.[0]?.value, p.phones?.[0]?.value, p.assignedTo]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </ListItemButton>
          ))}
        </List>
      )}
    </>
  );
}

function SideBySide({
  person,
  other,
  picks,
  onPick,
}: {
  person: Person;
  other: Person;
  picks: Record<string, 'keep' | 'other'>;
  onPick: (field: string, side: 'keep' | 'other') => void;
}) {
  const sides = [
    ['keep', person],
    ['other', other],
  ] as const;
  return (
    <Table size="small" aria-label="The two people side by side">
      <TableHead>
        <TableRow>
          <TableCell>Field</TableCell>
          <TableCell>{person.name} (kept)</TableCell>
          <TableCell>{other.name} (merged in, then deleted)</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {PICKED.map(({ field, label }) => (
          <TableRow key={field}>
            <TableCell component="th" scope="row">
              {label}
            </TableCell>
            {sides.map(([side, p]) => (
              <TableCell key={side}>
                <Radio
                  checked={(picks[field] ?? startingSide(field, person, other)) === side}
                  onChange={() => onPick(field, side)}
                  slotProps={{ input: { 'aria-label': `${label}: ${shown(p[field])}` } }}
                />
                {shown(p[field])}
              </TableCell>
            ))}
          </TableRow>
        ))}
        {COMBINED.map(({ label, of }) => (
          <TableRow key={label}>
            <TableCell component="th" scope="row">
              {label} (combined)
            </TableCell>
            {sides.map(([side, p]) => (
              <TableCell key={side}>{of(p).join(', ') || '—'}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Merges another person into this one: pick the duplicate, then field by field what stays. */
function MergeDialog({ person, onClose }: { person: Person; onClose: () => void }) {
  const phone = usePhone();
  const notify = useNotify();
  const refresh = useRefresh();
  const [other, setOther] = useState<Person | null>(null);
  const [picks, setPicks] = useState<Record<string, 'keep' | 'other'>>({});
  const [busy, setBusy] = useState(false);

  const merge = async () => {
    if (!other) return;
    setBusy(true);
    try {
      await apiFetch(`/v1/people/${person.id}/merge`, {
        method: 'POST',
        body: { personIds: [other.id] },
      });
      // The merge kept the kept person's values and filled its empty ones: set what was picked otherwise.
      const changed = PICKED.filter(
        ({ field }) => picks[field] && picks[field] !== startingSide(field, person, other),
      );
      const body = Object.assign(
        {},
        ...changed.map(({ field, update }) => update(picks[field] === 'other' ? other : person)),
      );
      if (changed.length) await apiFetch(`/v1/people/${person.id}`, { method: 'PUT', body });
      notify(`Merged ${other.name || 'the duplicate'} into ${person.name}`, { type: 'info' });
      refresh();
      onClose();
    } catch (failure) {
      notify((failure as Error).message, { type: 'error', autoHideDuration: 10_000 });
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="md"
      aria-labelledby="merge-title"
    >
      <DialogTitle id="merge-title">Merge a duplicate into {person.name}</DialogTitle>
      <DialogContent>
        {other ? (
          <SideBySide
            person={person}
            other={other}
            picks={picks}
            onPick={(field, side) => setPicks({ ...picks, [field]: side })}
          />
        ) : (
          <Candidates person={person} onPick={setOther} />
        )}
      </DialogContent>
      <DialogActions>
        {other ? <Button onClick={() => setOther(null)}>Pick another</Button> : null}
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!other || busy} onClick={merge}>
          Merge these two
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function MergeButton({ person }: { person: Person }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" size="small" onClick={() => setOpen(true)}>
        Merge
      </Button>
      {open ? <MergeDialog person={person} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
