import type { ReactNode } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';

/** A section of a screen named by its h2 `title`, with its "New …" button (`addLabel`) beside it. */
export function ListSection({
  headingId,
  title,
  addLabel,
  onAdd,
  children,
}: {
  /** The heading's id, which names the section. */
  headingId: string;
  title: string;
  addLabel: string;
  onAdd: () => void;
  children: ReactNode;
}) {
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ mb: 1, alignItems: 'center', justifyContent: 'space-between' }}
      >
        <Typography id={headingId} variant="h6" component="h2">
          {title}
        </Typography>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={onAdd}>
          {addLabel}
        </Button>
      </Stack>
      {children}
    </Box>
  );
}
