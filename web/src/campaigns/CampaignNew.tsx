import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Alert, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import { createCampaign, listTemplates } from './api';

const STARTER = '<p>Hello %contact_first_name%,</p>\n<p></p>\n<p>%agent_name%</p>';

/** Name a campaign and start it from an email template (or a blank message). */
export function CampaignNew() {
  const navigate = useNavigate();
  const templates = useQuery({ queryKey: ['templates'], queryFn: listTemplates });
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const template = templates.data?.find((t) => String(t.id) === templateId);
    setBusy(true);
    setError(null);
    try {
      const campaign = await createCampaign({
        name: name.trim() || template?.name || 'Untitled campaign',
        subject: template?.subject ?? '',
        bodyHtml: template?.body ?? STARTER,
      });
      navigate(`/campaigns/${campaign.id}`);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 640 }}>
      <PageHeading>New campaign</PageHeading>
      <Paper component="form" onSubmit={submit} sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={2}>
          <Typography color="text.secondary">
            Start from one of your email templates: its subject and body are copied into the
            campaign, where you can change them and preview them for any contact.
          </Typography>
          <TextField
            label="Campaign name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Spring open houses"
            slotProps={{ htmlInput: { maxLength: 300 } }}
          />
          <TextField
            select
            label="Email template"
            value={templateId}
            onChange={(e) => setTemplateId(e.target.value)}
            helperText={
              templates.data?.length === 0 ? 'No templates yet: the campaign starts blank.' : ' '
            }
          >
            <MenuItem value="">Blank message</MenuItem>
            {templates.data?.map((t) => (
              <MenuItem key={t.id} value={String(t.id)}>
                {t.name}
              </MenuItem>
            ))}
          </TextField>
          {error && <Alert severity="error">{error}</Alert>}
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" disabled={busy}>
              Create campaign
            </Button>
            <Button onClick={() => navigate('/campaigns')}>Back to campaigns</Button>
          </Stack>
        </Stack>
      </Paper>
    </Box>
  );
}
