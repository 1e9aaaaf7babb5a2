import { DataTable, type RaRecord } from 'react-admin';
import { Box, Chip, Typography } from '@mui/material';

function Sharing({ shared }: { shared: boolean }) {
  return shared ? (
    <Chip size="small" label="Team" />
  ) : (
    <Chip size="small" variant="outlined" label="Private" />
  );
}

/**
 * The columns of a list of email or text templates: the name over the text (subject or
 * message), and whether the team shares it, under the text on a phone so that the text gets the
 * width. Merge fields wrap whole (`%contact_first_name%`), not mid-word.
 */
export function templateColumns(phone: boolean, textOf: (record: RaRecord) => string) {
  return [
    <DataTable.Col
      key="name"
      source="name"
      label="Template"
      render={(record: RaRecord) => (
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'break-word' }}>
            {record.name}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ overflowWrap: 'break-word', maxWidth: 520 }}
          >
            {textOf(record)}
          </Typography>
          {phone ? (
            <Box sx={{ mt: 0.5 }}>
              <Sharing shared={Boolean(record.isShared)} />
            </Box>
          ) : null}
        </Box>
      )}
    />,
    phone ? null : (
      <DataTable.Col
        key="isShared"
        source="isShared"
        label="Shared"
        disableSort
        render={(record: RaRecord) => <Sharing shared={Boolean(record.isShared)} />}
      />
    ),
  ];
}
