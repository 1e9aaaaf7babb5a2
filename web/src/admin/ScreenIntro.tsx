import type { ReactNode } from 'react';
import { Button, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';

/**
 * A screen's introduction under its heading, beside the screen's "New …" button (`addLabel`); the
 * button is left out when there is no `onAdd` (a reader who may not add).
 */
export function ScreenIntro({
  addLabel,
  onAdd,
  children,
}: {
  addLabel: string;
  onAdd?: () => void;
  children: ReactNode;
}) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ mb: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
    >
      <Typography color="text.secondary">{children}</Typography>
      {onAdd ? (
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'center' } }}
          onClick={onAdd}
        >
          {addLabel}
        </Button>
      ) : null}
    </Stack>
  );
}
