import type { ReactNode } from 'react';
import { DataTable, ListBase, type RaRecord, type SortPayload } from 'react-admin';
import { Alert, Paper } from '@mui/material';

/**
 * One API resource's records as a table (react-admin's ListBase and DataTable) in an outlined
 * paper: all on one page (up to 100), no row click or bulk actions, `empty` in an info alert when
 * there are none, and after the given columns a right-aligned Actions column from `actions`.
 */
export function RecordTable({
  resource,
  sort,
  empty,
  actions,
  children,
}: {
  resource: string;
  sort?: SortPayload;
  empty: ReactNode;
  actions: (record: RaRecord) => ReactNode;
  /** The DataTable.Col columns before Actions. */
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
      <ListBase resource={resource} perPage={100} sort={sort} disableSyncWithLocation>
        <DataTable
          rowClick={false}
          bulkActionButtons={false}
          empty={
            <Alert severity="info" sx={{ m: 2 }}>
              {empty}
            </Alert>
          }
        >
          {children}
          <DataTable.Col label="Actions" align="right" disableSort render={actions} />
        </DataTable>
      </ListBase>
    </Paper>
  );
}
