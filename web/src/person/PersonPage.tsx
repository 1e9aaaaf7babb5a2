import { EditBase, Title, useEditContext } from 'react-admin';
import { Box, Chip, CircularProgress, Grid, Paper, Stack, Typography } from '@mui/material';
import { PersonDetails } from './PersonDetails';
import { QuickActions } from './QuickActions';
import { Timeline } from './Timeline';
import { MergeButton } from './MergeDialog';
import MailOutlineIcon from '@mui/icons-material/EmailOutlined';
import PhoneIcon from '@mui/icons-material/Phone';
import { PersonAutomations } from '../automations/PersonAutomations';
import { EmailButton } from './EmailComposer';

function Header() {
  const { record } = useEditContext();
  if (!record) return null;
  const facts = [
    record.stage,
    record.assignedTo && `Agent: ${record.assignedTo}`,
    record.source,
  ].filter(Boolean);
  return (
    <Box sx={{ mt: 2, mb: 2 }}>
      <Title title={record.name || 'Person'} />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          {record.name || 'Unnamed person'}
        </Typography>
        <EmailButton person={record} />
        <MergeButton person={record} />
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }} useFlexGap>
        {facts.map((fact: string) => (
          <Chip key={fact} label={fact} size="small" />
        ))}
        {record.emails?.[0] ? (
          <Chip
            component="a"
            href={`mailto:${record.emails[0].value}`}
            icon={<MailOutlineIcon />}
            clickable
            label={record.emails[0].value}
            size="small"
            variant="outlined"
          />
        ) : null}
        {record.phones?.[0] ? (
          <Chip
            component="a"
            href={`tel:${record.phones[0].value}`}
            icon={<PhoneIcon />}
            clickable
            label={record.phones[0].value}
            size="small"
            variant="outlined"
          />
        ) : null}
      </Stack>
    </Box>
  );
}

function PersonView() {
  const { record, isPending } = useEditContext();
  if (isPending || !record) return <CircularProgress sx={{ m: 4 }} aria-label="Loading" />;
  return (
    <>
      <Header />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }} sx={{ minWidth: 0 }}>
          <QuickActions person={record} />
          <PersonAutomations personId={Number(record.id)} />
          <Paper variant="outlined" sx={{ mt: 2, p: 2 }}>
            <Timeline personId={Number(record.id)} />
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }} sx={{ minWidth: 0 }}>
          <Paper variant="outlined" component="section" aria-labelledby="details-heading">
            <Typography id="details-heading" variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
              Details
            </Typography>
            <PersonDetails />
          </Paper>
        </Grid>
      </Grid>
    </>
  );
}

/** /people/:id — the person's name as heading, quick actions, the timeline, every field edited in
 * place (each saved on its own, so there is no Save to forget). */
export function PersonPage() {
  return (
    <EditBase mutationMode="pessimistic" redirect={false}>
      <PersonView />
    </EditBase>
  );
}
