import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';

/** A header cell: its text, or the text and alignment; null or false leaves the column out. */
export type PlainColumn = string | { label: string; align: 'right' } | null | false;

/**
 * The scaffold of a plain table (rows the screen renders itself, not a react-admin list): its
 * accessible name, a header row with one cell per column, then the rows given as children.
 */
export function PlainTable({
  label,
  size,
  columns,
  children,
}: {
  label: string;
  size?: 'small' | 'medium';
  columns: PlainColumn[];
  children: ReactNode;
}) {
  return (
    <Table aria-label={label} size={size}>
      <TableHead>
        <TableRow>
          {columns.map((column) =>
            !column ? null : typeof column === 'string' ? (
              <TableCell key={column}>{column}</TableCell>
            ) : (
              <TableCell key={column.label} align={column.align}>
                {column.label}
              </TableCell>
            ),
          )}
        </TableRow>
      </TableHead>
      <TableBody>{children}</TableBody>
    </Table>
  );
}
