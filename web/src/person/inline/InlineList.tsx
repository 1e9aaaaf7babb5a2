import { useEffect, useState } from 'react';
import { Box, Button, IconButton, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { InlineField } from './InlineField';
import { useInlineSave } from './useInlineSave';

type Item = Record<string, unknown>;

export interface ListField {
  key: string;
  label: string;
  type?: string;
  inputMode?: 'email' | 'tel';
  /** Wider than the others (an address's street, an email address). */
  wide?: boolean;
}

/**
 * A person's emails, phones or addresses, each part edited in place; the whole list is saved
 * with the change (the API replaces it). A new row exists only here until something is typed in
 * it; emptying an email or phone removes it.
 */
export function InlineList({
  title,
  source,
  items,
  fields,
  describe,
  clean = (item) => item,
}: {
  title: string;
  source: string;
  items: Item[];
  fields: ListField[];
  /** How a row is named on its Remove button ("edie@example.com"). */
  describe: (item: Item) => string;
  /** The item as the API takes it back (phones drop their computed `normalized`). */
  clean?: (item: Item) => Item;
}) {
  const save = useInlineSave();
  const [drafts, setDrafts] = useState(0);
  const [count, setCount] = useState(items.length);
  useEffect(() => {
    // A saved draft comes back as an item: it is no longer a draft.
    if (items.length > count) setDrafts((d) => Math.max(0, d - (items.length - count)));
    setCount(items.length);
  }, [items.length, count]);

  const saved = items.map(clean);
  const rows: Item[] = [...saved, ...Array.from({ length: drafts }, () => ({}))];
  const id = `person-${source}`;
  const patchFor = (index: number, key: string, text: string) => {
    const next = rows.map((row, i) => (i === index ? { ...row, [key]: text } : row));
    const kept = next.filter((row, i) => i < saved.length || i === index);
    const valued = fields[0].key === 'value' ? kept.filter((row) => row.value) : kept;
    return { [source]: valued };
  };
  const remove = (index: number) =>
    save(title, { [source]: saved.filter((_, i) => i !== index) }).catch(() => {});

  return (
    <Box role="group" aria-labelledby={id} sx={{ width: '100%', mt: 1 }}>
      <Typography id={id} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {rows.map((row, index) => (
        <Stack
          key={`row-${index}`}
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'flex-start', flexWrap: 'wrap', mt: 1 }}
        >
          {fields.map((field) => (
            <Box key={field.key} sx={{ flex: field.wide ? '2 1 200px' : '1 1 120px', minWidth: 0 }}>
              <InlineField
                label={field.label}
                value={row[field.key]}
                type={field.type}
                inputMode={field.inputMode}
                fullWidth
                toPatch={(text) => patchFor(index, field.key, text)}
              />
            </Box>
          ))}
          {index < saved.length ? (
            <IconButton
              aria-label={`Remove ${describe(row) || title.toLowerCase().replace(/s$/, '')}`}
              onClick={() => void remove(index)}
              sx={{ mt: 0.5 }}
            >
              <DeleteOutlineIcon />
            </IconButton>
          ) : null}
        </Stack>
      ))}
      <Button startIcon={<AddIcon />} onClick={() => setDrafts((d) => d + 1)} sx={{ mt: 0.5 }}>
        Add
      </Button>
    </Box>
  );
}
