import { Chip, Stack, Typography } from '@mui/material';
import type { Named } from './kit';

/** Users named by their ids (a deactivated one, no longer listed, by its number). */
export function UserChips({
  ids,
  users,
  none,
}: {
  ids: number[];
  users: Named[];
  /** What an empty list says: "No members". */
  none: string;
}) {
  if (ids.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {none}
      </Typography>
    );
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
      {ids.map((id) => (
        <Chip key={id} size="small" label={nameOf.get(id) ?? `User ${id}`} />
      ))}
    </Stack>
  );
}
