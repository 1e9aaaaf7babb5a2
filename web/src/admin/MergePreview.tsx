import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { apiFetch } from '../api/http';
import { fetchPage } from '../api/lists';
import { usePhone } from './kit';
import type { Person, Template, TextTemplateMerged } from '../api/types';

type PersonOption = Pick<Person, 'id' | 'name' | 'emails'>;
/** A merged email has a subject; a merged text message has none. */
type Merged = { subject: Template['subject'] | null; body: Template['body'] };

/** The saved template merged for a person, by the API, as an email or as a text message. */
async function mergeFor(kind: 'email' | 'text', templateId: number, personId: number) {
  if (kind === 'email')
    return (await apiFetch(`/v1/templates/${templateId}?mergePersonId=${personId}`)).json as Merged;
  const { json } = await apiFetch('/v1/textMessageTemplates/merge', {
    method: 'POST',
    body: { templateId, personId },
  });
  return { subject: null, body: (json as TextTemplateMerged).mergedTemplate };
}

const looksLikeHtml = (text: string) => /<[a-z][\s\S]*>/i.test(text);

/** People the signed-in user sees whose name, email or phone matches what is typed. */
function PersonPicker({
  value,
  onChange,
}: {
  value: PersonOption | null;
  onChange: (person: PersonOption | null) => void;
}) {
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const wait = setTimeout(() => setQuery(typed.trim()), 250);
    return () => clearTimeout(wait);
  }, [typed]);
  const { data = [], isFetching } = useQuery({
    queryKey: ['mergePreviewPeople', query],
    queryFn: async () =>
      (
        await fetchPage<PersonOption>(
          `/v1/people?limit=10&fields=name,emails${query ? `&q=${encodeURIComponent(query)}` : ''}`,
        )
      ).items,
  });
  return (
    <Autocomplete
      options={data}
      value={value}
      loading={isFetching}
      filterOptions={(options) => options}
      getOptionLabel={(option) => option.name || `Person ${option.id}`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onInputChange={(_event, text) => setTyped(text)}
      onChange={(_event, person) => onChange(person)}
      renderOption={(props, option) => (
        <li {...props} key={option.id}>
          <Box>
            <Typography>{option.name || `Person ${option.id}`}</Typography>
            {option.emails?.[0] ? (
              <Typography variant="body2" color="text.secondary">
                {option.emails[0].value}
              </Typography>
            ) : null}
          </Box>
        </li>
      )}
      renderInput={(params) => (
        <TextField {...params} label="Person" helperText="Type a name, email or phone" />
      )}
    />
  );
}

/**
 * A template as the chosen person would receive it: the API merges the saved template (an email
 * template, or a text message template when `kind` is text) with that person's assigned agent.
 */
export function MergePreviewDialog({
  template,
  kind = 'email',
  onClose,
}: {
  template: { id: number; name: string };
  kind?: 'email' | 'text';
  onClose: () => void;
}) {
  const phone = usePhone();
  const [person, setPerson] = useState<PersonOption | null>(null);
  const merged = useQuery({
    queryKey: [
      kind === 'email' ? 'templates' : 'textMessageTemplates',
      'merged',
      template.id,
      person?.id,
    ],
    enabled: person !== null,
    queryFn: () => mergeFor(kind, template.id, person!.id),
  });
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="md"
      aria-labelledby="merge-preview-title"
    >
      <DialogTitle id="merge-preview-title">Preview {template.name}</DialogTitle>
      <DialogContent>
        <Box sx={{ pt: 1 }}>
          <PersonPicker value={person} onChange={setPerson} />
        </Box>
        {merged.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {(merged.error as Error).message}
          </Alert>
        ) : null}
        {person && merged.data ? (
          <Paper
            variant="outlined"
            component="section"
            aria-label={`Merged for ${person.name}`}
            sx={{ mt: 2 }}
          >
            {merged.data.subject === null ? null : (
              <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
                <Typography variant="body2" color="text.secondary">
                  Subject
                </Typography>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {merged.data.subject || '(no subject)'}
                </Typography>
              </Box>
            )}
            {kind === 'email' && looksLikeHtml(merged.data.body) ? (
              // A sandbox without scripts: the template's markup is shown, never run.
              <Box
                component="iframe"
                title={`Body of ${template.name} for ${person.name}`}
                sandbox=""
                srcDoc={merged.data.body}
                sx={{ display: 'block', width: '100%', height: 320, border: 0, bgcolor: '#fff' }}
              />
            ) : (
              <Typography sx={{ p: 2, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {merged.data.body}
              </Typography>
            )}
          </Paper>
        ) : null}
        {!person ? (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            Choose a person to see the saved template with their details and their agent&apos;s.
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
