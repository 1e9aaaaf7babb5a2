import { ValueMapping, type ValueChoices } from './ValueMapping';
import { IDENTIFYING, type Preview, previewOf, upload } from './api';
import type { ImportState } from '../api/types';
import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  NativeSelect,
  Paper,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';

/** Each column of the file with its first values and the Hearth field it goes to. */
function ColumnMapping({
  preview,
  chosen,
  onChange,
}: {
  preview: Preview;
  chosen: Record<string, string>;
  onChange: (header: string, field: string) => void;
}) {
  return (
    <Table size="small" aria-label="First rows of the file" sx={{ tableLayout: 'fixed' }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ fontWeight: 600 }}>Column and its first rows</TableCell>
          <TableCell sx={{ fontWeight: 600, width: { xs: 150, sm: 260 } }}>Hearth field</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {preview.columns.map((column) => (
          <TableRow key={column.header}>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>
              <Typography sx={{ fontWeight: 600 }}>{column.header}</Typography>
              {column.samples.map((value, i) => (
                <Typography key={i} variant="body2" color="text.secondary">
                  {value || '—'}
                </Typography>
              ))}
            </TableCell>
            <TableCell>
              <NativeSelect
                fullWidth
                value={chosen[column.header] ?? column.field ?? 'ignore'}
                onChange={(e) => onChange(column.header, e.target.value)}
                inputProps={{ 'aria-label': `Hearth field for column ${column.header}` }}
              >
                <option value="ignore">Ignore</option>
                {preview.fields.map((f) => (
                  <option key={f.field} value={f.field}>
                    {f.label}
                    {f.field === column.field && column.contactType
                      ? ` (${column.contactType})`
                      : ''}
                  </option>
                ))}
              </NativeSelect>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Progress({ state }: { state: ImportState }) {
  const finished = state.status === 'done' || state.status === 'failed';
  const percent = state.total ? Math.round((100 * state.processed) / state.total) : 0;
  return (
    <Paper sx={{ p: 2 }}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        {state.dryRun ? 'Dry run' : 'Import'} {finished ? state.status : 'in progress'}
      </Typography>
      <LinearProgress
        variant={state.total ? 'determinate' : 'indeterminate'}
        value={percent}
        aria-label="Import progress"
      />
      <Typography sx={{ mt: 1 }}>
        {state.processed} of {state.total ?? '…'} rows · Created {state.created} · Updated{' '}
        {state.updated} · Skipped {state.skipped} · Errors {state.errorCount}
      </Typography>
      {state.message && <Alert severity="error">{state.message}</Alert>}
      {state.errors.length > 0 && (
        <Box sx={{ mt: 1 }}>
          <Typography component="ul" sx={{ pl: 2, m: 0 }}>
            {state.errors.slice(0, 5).map((e) => (
              <li key={e.row}>
                Row {e.row}: {e.message}
              </li>
            ))}
          </Typography>
          <a href={`/v1/imports/${state.id}/errors.csv`} download>
            Download error report
          </a>
        </Box>
      )}
    </Paper>
  );
}

/** Upload a CSV, see its first rows, try it as a dry run, import with a progress bar, undo. */
export function ImportScreen() {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  /** the columns whose field the person changed: header → field or "ignore" */
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [values, setValues] = useState<ValueChoices>({});
  const [onDuplicate, setOnDuplicate] = useState('update');
  const [dateFormat, setDateFormat] = useState('MDY');
  const [state, setState] = useState<ImportState | null>(null);
  const [error, setError] = useState<string | null>(null);

  const running = state && !(state.status === 'done' || state.status === 'failed');
  const undoing = state?.undo && state.undo.status !== 'done';
  useEffect(() => {
    if (!state || (!running && !undoing)) return;
    const timer = setTimeout(async () => {
      const { json } = await apiFetch(`/v1/imports/${state.id}`);
      setState(json as ImportState);
    }, 500);
    return () => clearTimeout(timer);
  }, [state, running, undoing]);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setState(null);
    setError(null);
    setPreview(null);
    setMapping({});
    setValues({});
    if (!chosen) return;
    try {
      setPreview(await previewOf(chosen));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const chooseField = (header: string, field: string) => {
    const recognised = preview?.columns.find((c) => c.header === header)?.field ?? 'ignore';
    const next = { ...mapping };
    // A column left as recognised is not sent: its recognised contact type (Work Phone) stays.
    if (field === recognised) delete next[header];
    else next[header] = field;
    setMapping(next);
  };
  const identifies = preview?.columns.some((c) =>
    IDENTIFYING.includes(mapping[c.header] ?? c.field ?? 'ignore'),
  );
  const start = async (dryRun: boolean) => {
    if (!file) return;
    setError(null);
    try {
      const id = await upload(file, dryRun, { onDuplicate, dateFormat, mapping, values });
      setState((await apiFetch(`/v1/imports/${id}`)).json as ImportState);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const undo = async () => {
    if (!state) return;
    setState((await apiFetch(`/v1/imports/${state.id}`, { method: 'DELETE' })).json as ImportState);
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <PageHeading>Import people</PageHeading>
      <Stack spacing={2}>
        <Typography>
          A CSV file from a spreadsheet or another CRM (up to 50 MB). Columns such as First Name,
          Last Name, Email, Phone, Address, Tags, Stage and your custom fields are recognised. A
          person whose email or phone is already known is updated, never duplicated.
        </Typography>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' } }}
        >
          <Button variant="outlined" component="label">
            Choose CSV file
            <input
              hidden
              type="file"
              accept=".csv,.tsv,.txt,text/csv"
              aria-label="CSV file"
              onChange={(e) => void choose(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography>
            {file ? `${file.name} (${Math.ceil(file.size / 1024)} KB)` : 'No file chosen'}
          </Typography>
        </Stack>
        {preview && (
          <Box sx={{ overflowX: 'auto' }}>
            <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
              Columns
            </Typography>
            <ColumnMapping preview={preview} chosen={mapping} onChange={chooseField} />
            {!identifies && (
              <Alert severity="warning" sx={{ mt: 1 }}>
                Map at least one column to a name, email or phone.
              </Alert>
            )}
          </Box>
        )}
        {preview && (
          <ValueMapping
            columns={preview.columns}
            fieldOf={(c) => mapping[c.header] ?? c.field ?? 'ignore'}
            choices={values}
            onChange={setValues}
          />
        )}
        <FormControl sx={{ maxWidth: 320 }}>
          <InputLabel id="on-duplicate">If the person exists</InputLabel>
          <Select
            labelId="on-duplicate"
            label="If the person exists"
            value={onDuplicate}
            onChange={(e) => setOnDuplicate(e.target.value)}
          >
            <MenuItem value="update">Fill in what is missing</MenuItem>
            <MenuItem value="skip">Skip the row</MenuItem>
          </Select>
        </FormControl>
        <FormControl sx={{ maxWidth: 320 }}>
          <InputLabel id="date-format">Dates in the file</InputLabel>
          <Select
            labelId="date-format"
            label="Dates in the file"
            value={dateFormat}
            onChange={(e) => setDateFormat(e.target.value)}
          >
            <MenuItem value="MDY">Month first (12/31/2025)</MenuItem>
            <MenuItem value="DMY">Day first (31/12/2025)</MenuItem>
          </Select>
        </FormControl>
        <Stack direction="row" spacing={2}>
          <Button
            variant="outlined"
            disabled={!file || !identifies || !!running}
            onClick={() => void start(true)}
          >
            Dry run
          </Button>
          <Button
            variant="contained"
            disabled={!file || !identifies || !!running}
            onClick={() => void start(false)}
          >
            Import
          </Button>
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
        {state && <Progress state={state} />}
        {state?.status === 'done' && !state.dryRun && !state.undo && state.created > 0 && (
          <Box>
            <Button color="error" variant="outlined" onClick={() => void undo()}>
              Undo import
            </Button>
          </Box>
        )}
        {state?.undo && (
          <Typography role="status">
            {state.undo.status === 'done'
              ? `Undone: removed ${state.undo.removed} people`
              : 'Undoing…'}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}
