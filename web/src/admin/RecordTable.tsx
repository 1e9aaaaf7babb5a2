import type { ReactNode } from 'react';
import {
  DataTable,
  ListBase,
  useListContext,
  useResourceContext,
  type RaRecord,
  type SortPayload,
} from 'react-admin';
import { Alert, Button, Paper } from '@mui/material';

/** What failed, with Retry, where a failed list would otherwise look empty. */
function LoadFailure({ what }: { what: string }) {
  const { error, refetch } = useListContext();
  return (
    <Alert severity="error" sx={{ m: 2 }} action={<Button onClick={() => refetch()}>Retry</Button>}>
      Could not load {what}: {(error as Error | null)?.message}
    </Alert>
  );
}

function TableOrFailure({ what, children }: { what?: string; children: ReactNode }) {
  const { error } = useListContext();
  const resource = useResourceContext();
  return error ? <LoadFailure what={what ?? resource ?? 'the list'} /> : children;
}

/**
 * One API resource's records as a table (react-admin's ListBase and DataTable) in an outlined
 * paper: all on one page (up to 100), no row click or bulk actions, skeleton rows while loading,
 * `empty` in an info alert when there are none, what failed with Retry when the read failed, and
 * after the given columns a right-aligned Actions column from `actions`.
 */
export function RecordTable({
  resource,
  what,
  sort,
  empty,
  actions,
  children,
}: {
  resource: string;
  /** What the rows are, in the words of the thing, for the failure message: "the ponds". */
  what?: string;
  sort?: SortPayload;
  empty: ReactNode;
  actions: (record: RaRecord) => ReactNode;
  /** The DataTable.Col columns before Actions. */
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
      <ListBase resource={resource} perPage={100} sort={sort} disableSyncWithLocation>
        <TableOrFailure what={what}>
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
        </TableOrFailure>
      </ListBase>
    </Paper>
  );
}
