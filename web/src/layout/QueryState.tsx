import { Alert, Button, Typography } from '@mui/material';

/**
 * What a list shows before its items: "Loading…" while it loads (never the empty message), what
 * failed with Retry, or the empty message once it is known to be empty.
 */
export function QueryState({
  query,
  what,
  empty,
  isEmpty,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** what is loading, in the words of the thing: "your tasks" */
  what: string;
  empty: string;
  isEmpty: boolean;
}) {
  if (query.isPending)
    return (
      <Typography role="status" color="text.secondary">
        Loading {what}…
      </Typography>
    );
  if (query.isError)
    return (
      <Alert severity="error" action={<Button onClick={() => query.refetch()}>Retry</Button>}>
        Could not load {what}: {(query.error as Error)?.message}
      </Alert>
    );
  return isEmpty ? <Typography color="text.secondary">{empty}</Typography> : null;
}
