import { useEffect, useRef, useState } from 'react';
import { useListContext, type Identifier } from 'react-admin';
import { Button, Checkbox, Stack, Typography } from '@mui/material';
import type { BulkKind, BulkTarget } from './bulk';
import { filterOf } from './bulk';
import { BulkDialog, TITLES } from './BulkDialog';

/** The row's checkbox, named for the person ("Select Jane Doe"). */
export function SelectPerson({ id, name }: { id: Identifier; name: string }) {
  const { selectedIds, onToggleItem } = useListContext();
  return (
    <Checkbox
      checked={selectedIds.includes(id)}
      onChange={() => onToggleItem(id)}
      onClick={(event) => event.stopPropagation()}
      slotProps={{ input: { 'aria-label': `Select ${name || 'Unnamed person'}` } }}
    />
  );
}

/** Selects or clears every row of the page shown. */
export function SelectPage() {
  const { data, selectedIds, onSelect, onUnselectItems } = useListContext();
  const ids = (data ?? []).map((r) => r.id);
  const all = ids.length > 0 && ids.every((id) => selectedIds.includes(id));
  return (
    <Checkbox
      checked={all}
      indeterminate={!all && selectedIds.length > 0}
      disabled={ids.length === 0}
      onChange={() => (all ? onUnselectItems() : onSelect(ids))}
      slotProps={{ input: { 'aria-label': 'Select all on this page' } }}
    />
  );
}

const plural = (n: number) => (n === 1 ? '1 person' : `${n.toLocaleString('en-US')} people`);

/**
 * With people selected: Assign, Add tag, Remove tag, Change stage and Delete act on all of them,
 * or, after **Select all N matching**, on everyone the list's filters match (one job on the
 * server, however many).
 */
export function BulkActions() {
  const { selectedIds, onUnselectItems, total, filterValues } = useListContext();
  const [open, setOpen] = useState<BulkKind | null>(null);
  const [allMatching, setAllMatching] = useState(false);
  // A selection belongs to the list it was made in: new filters start a new one, so an action never
  // reaches people the list no longer shows.
  const filters = JSON.stringify(filterValues);
  const unselect = useRef(onUnselectItems);
  unselect.current = onUnselectItems;
  useEffect(() => {
    setAllMatching(false);
    unselect.current();
  }, [filters]);
  if (selectedIds.length === 0) return null;
  const matching = total ?? 0;
  const everyone = allMatching && matching > selectedIds.length;
  const target: BulkTarget = everyone
    ? { filter: filterOf(filterValues) }
    : { personIds: selectedIds.map(Number) };
  const count = everyone ? matching : selectedIds.length;
  const clear = () => {
    setAllMatching(false);
    onUnselectItems();
  };
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      role="toolbar"
      aria-label="Selected people"
      sx={{ flexWrap: 'wrap', alignItems: 'center', px: 2, py: 1, bgcolor: 'action.selected' }}
    >
      <Typography sx={{ mr: 1 }} role="status">
        {everyone ? `All ${plural(matching)} matching selected` : `${selectedIds.length} selected`}
      </Typography>
      {!everyone && matching > selectedIds.length ? (
        <Button onClick={() => setAllMatching(true)}>
          Select all {matching.toLocaleString('en-US')} matching
        </Button>
      ) : null}
      {(Object.keys(TITLES) as BulkKind[]).map((kind) => (
        <Button
          key={kind}
          variant="outlined"
          color={kind === 'delete' ? 'error' : 'primary'}
          onClick={() => setOpen(kind)}
        >
          {TITLES[kind]}
        </Button>
      ))}
      <Button onClick={clear}>Clear selection</Button>
      {open ? (
        <BulkDialog
          kind={open}
          target={target}
          count={count}
          onClose={(changed) => {
            setOpen(null);
            if (changed) clear();
          }}
        />
      ) : null}
    </Stack>
  );
}
