import { TableCell, Typography } from '@mui/material';
import { usePhone } from './kit';

/** On a phone the cards are ~370px: cells keep 8px sides (16px at the card's edge). */
export const PHONE_CELLS = {
  '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } },
  '& .MuiTableCell-root:first-of-type': { pl: 2 },
};

/** A name, and on a phone (where its column is left out) the email and any more under it. */
export function NameCell({ name, email, more }: { name: string; email: string; more?: string }) {
  if (!usePhone()) return <TableCell>{name}</TableCell>;
  const small = { display: 'block', color: 'text.secondary' } as const;
  return (
    <TableCell sx={{ overflowWrap: 'anywhere' }}>
      {name}
      <Typography variant="caption" sx={small}>
        {email}
      </Typography>
      {more ? (
        <Typography variant="caption" sx={small}>
          {more}
        </Typography>
      ) : null}
    </TableCell>
  );
}
