import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { getCampaign, searchPeople, type PersonOption } from './api';
import { PersonPicker } from './PersonPicker';

/** The campaign as one contact will get it, merged by the server (refreshed after each save). */
export function Preview({
  campaignId,
  version,
  person,
  setPerson,
}: {
  campaignId: number;
  version: number;
  person: PersonOption | null;
  setPerson: (update: (chosen: PersonOption | null) => PersonOption | null) => void;
}) {
  // The first person is a default: it never replaces a choice, nor text the user is typing.
  const typed = useRef(false);
  useEffect(() => {
    searchPeople('').then(
      (found) => setPerson((chosen) => chosen ?? (typed.current ? null : (found[0] ?? null))),
      () => {},
    );
  }, []);
  const merged = useQuery({
    queryKey: ['campaignPreview', campaignId, person?.id ?? 0, version],
    queryFn: () => getCampaign(campaignId, person?.id),
    placeholderData: (previous) => previous,
  });
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="preview-heading">
      <Stack spacing={2}>
        <Typography id="preview-heading" variant="h6" component="h2">
          Preview
        </Typography>
        <PersonPicker
          label="Preview for"
          value={person}
          onChange={(p) => setPerson(() => p)}
          onType={() => (typed.current = true)}
        />
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
          <Box sx={{ px: 2, py: 1, bgcolor: 'grey.100', borderBottom: 1, borderColor: 'divider' }}>
            <Typography variant="body2" color="text.secondary">
              Subject
            </Typography>
            <Typography aria-label="Preview subject" sx={{ fontWeight: 600 }}>
              {merged.data?.subject || '(no subject)'}
            </Typography>
          </Box>
          <Box
            component="iframe"
            title="Email preview"
            sandbox=""
            srcDoc={merged.data?.bodyHtml ?? ''}
            sx={{ display: 'block', width: '100%', height: 360, border: 0, bgcolor: '#fff' }}
          />
        </Box>
      </Stack>
    </Paper>
  );
}
