import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  MenuItem,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchAll } from '../api/lists';
import { PageHeading } from '../layout/PageHeading';
import { useQueryAction } from './kit';
import { PlainTable } from './PlainTable';
import type { CustomField } from '../api/types';

const TYPES = ['text', 'date', 'number', 'dropdown'];

/** One list of custom fields: people's (/v1/customFields) or deals' (/v1/dealCustomFields). */
function FieldsSection({ title, path }: { title: string; path: string }) {
  const key = ['admin', path];
  const run = useQueryAction(key);
  const [form, setForm] = useState({ label: '', type: 'text', choices: '' });
  const { data: fields = [], error } = useQuery({
    queryKey: key,
    queryFn: () => fetchAll<CustomField>(`${path}?limit=100`),
  });

  async function add() {
    const body: Record<string, unknown> = { label: form.label.trim(), type: form.type };
    if (form.type === 'dropdown')
      body.choices = form.choices
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
    const added = await run(
      () => apiFetch(path, { method: 'POST', body }),
      `${form.label.trim()} added`,
    );
    if (added) setForm({ label: '', type: 'text', choices: '' });
  }

  return (
    <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
      <PlainTable
        label={title}
        size="small"
        columns={['Label', 'Key', 'Type', 'Choices', 'Actions']}
      >
        {fields.map((field) => (
          <TableRow key={field.id}>
            <TableCell>{field.label}</TableCell>
            <TableCell>{field.name}</TableCell>
            <TableCell>{field.type}</TableCell>
            <TableCell>{field.choices.join(', ')}</TableCell>
            <TableCell>
              <Button
                color="error"
                aria-label={`Delete ${field.label}`}
                onClick={() =>
                  void run(
                    () => apiFetch(`${path}/${field.id}`, { method: 'DELETE' }),
                    `${field.label} deleted`,
                  )
                }
              >
                Delete
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </PlainTable>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2 }}>
        <TextField
          label={`New ${title.toLowerCase().replace(/s$/, '')} label`}
          size="small"
          value={form.label}
          onChange={(event) => setForm({ ...form, label: event.target.value })}
        />
        <TextField
          select
          label="Type"
          size="small"
          value={form.type}
          onChange={(event) => setForm({ ...form, type: event.target.value })}
          sx={{ minWidth: 120 }}
        >
          {TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {type}
            </MenuItem>
          ))}
        </TextField>
        {form.type === 'dropdown' ? (
          <TextField
            label="Choices (comma-separated)"
            size="small"
            value={form.choices}
            onChange={(event) => setForm({ ...form, choices: event.target.value })}
          />
        ) : null}
        <Button variant="contained" sx={{ whiteSpace: 'nowrap' }} onClick={() => void add()}>
          Add field
        </Button>
      </Stack>
    </Paper>
  );
}

/** Custom fields of people and of deals. */
export function CustomFieldsScreen() {
  return (
    <>
      <PageHeading>Custom fields</PageHeading>
      <Stack spacing={3}>
        <FieldsSection title="People fields" path="/v1/customFields" />
        <FieldsSection title="Deal fields" path="/v1/dealCustomFields" />
      </Stack>
    </>
  );
}
