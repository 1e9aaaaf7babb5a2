import { useQuery } from '@tanstack/react-query';
import {
  Box,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { fetchAll } from '../api/lists';
import type { ImportPreview } from '../api/types';

/** The import's value mapping sent as `values`: field → the file's value → id or source. */
export type ValueChoices = Record<string, Record<string, number | string>>;

type Column = Pick<ImportPreview['columns'][number], 'header' | 'field' | 'values'>;

const MAPPED: Record<string, string> = {
  stage: 'stage',
  assignedTo: 'agent',
  lender: 'lender',
  source: 'source',
};

/** What the wizard sends: only the values given a choice. */
export function valuesQuery(choices: ValueChoices): string | null {
  const kept = Object.fromEntries(
    Object.entries(choices)
      .map(([field, map]) => [
        field,
        Object.fromEntries(Object.entries(map).filter(([, v]) => v !== '')),
      ])
      .filter(([, map]) => Object.keys(map as object).length > 0),
  );
  return Object.keys(kept).length ? JSON.stringify(kept) : null;
}

/**
 * The values of the file's stage, agent, lender and source columns, each with what it becomes in
 * Hearth: a value matching a stage or user by name is matched already; the others are chosen here,
 * or left to the default (the first stage, the importing user) with a warning in the report.
 */
export function ValueMapping({
  columns,
  fieldOf,
  choices,
  onChange,
}: {
  columns: Column[];
  fieldOf: (column: Column) => string;
  choices: ValueChoices;
  onChange: (next: ValueChoices) => void;
}) {
  const stages = useQuery({
    queryKey: ['importStages'],
    queryFn: () => fetchAll<{ id: number; name: string }>('/v1/stages?limit=100'),
  });
  const users = useQuery({
    queryKey: ['importUsers'],
    queryFn: () => fetchAll<{ id: number; name: string }>('/v1/users?limit=100'),
  });
  const mapped = columns.filter((c) => MAPPED[fieldOf(c)] && c.values?.length);
  if (mapped.length === 0) return null;
  const set = (field: string, value: string, to: number | string) =>
    onChange({ ...choices, [field]: { ...choices[field], [value]: to } });
  return (
    <Box>
      <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        Values
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        What the file&apos;s own words mean in Hearth. A value left unmatched gets the first stage
        or you as agent, and is listed as a warning.
      </Typography>
      {mapped.map((column) => {
        const field = fieldOf(column);
        const options = field === 'stage' ? stages.data : users.data;
        const known = (value: string) =>
          options?.find((o) => o.name.toLowerCase() === value.toLowerCase());
        return (
          <Table
            key={column.header}
            size="small"
            aria-label={`Values of ${column.header}`}
            sx={{ mb: 2 }}
          >
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>{column.header} in the file</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>In Hearth ({MAPPED[field]})</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {column.values!.map((value) => (
                <TableRow key={value}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{value}</TableCell>
                  <TableCell>
                    {field === 'source' ? (
                      <TextField
                        size="small"
                        label={`${column.header}: ${value}`}
                        value={choices.source?.[value] ?? value}
                        onChange={(e) => set('source', value, e.target.value)}
                        fullWidth
                      />
                    ) : (
                      <TextField
                        select
                        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                        size="small"
                        label={`${column.header}: ${value}`}
                        value={String(choices[field]?.[value] ?? known(value)?.id ?? '')}
                        onChange={(e) =>
                          set(field, value, e.target.value === '' ? '' : Number(e.target.value))
                        }
                        fullWidth
                      >
                        <MenuItem value="">
                          <em>
                            {field === 'stage'
                              ? 'The first stage (Lead)'
                              : field === 'lender'
                                ? 'No lender'
                                : 'Me'}
                          </em>
                        </MenuItem>
                        {(options ?? []).map((o) => (
                          <MenuItem key={o.id} value={String(o.id)}>
                            {o.name}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        );
      })}
    </Box>
  );
}
