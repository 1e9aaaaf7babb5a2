import { useListContext } from 'react-admin';
import { Box, Button, Typography } from '@mui/material';

/**
 * Previous / Next only: the API pages by cursor (`next`), so there is no jumping to page 40.
 * The data provider remembers each page's cursor.
 */
export function CursorPagination() {
  const { page, perPage, total, setPage, hasNextPage, hasPreviousPage, isPending } =
    useListContext();
  if (isPending || !total) return null;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, total);
  return (
    <Box
      component="nav"
      aria-label="Pages"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, p: 1 }}
    >
      <Typography variant="body2" sx={{ mr: 1 }}>
        {first}–{last} of {total}
      </Typography>
      <Button size="small" disabled={!hasPreviousPage} onClick={() => setPage(page - 1)}>
        Previous
      </Button>
      <Button size="small" disabled={!hasNextPage} onClick={() => setPage(page + 1)}>
        Next
      </Button>
    </Box>
  );
}
