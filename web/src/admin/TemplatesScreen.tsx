import { useState } from 'react';
import {
  BooleanInput,
  Confirm,
  DataTable,
  ListBase,
  TextInput,
  required,
  type RaRecord,
} from 'react-admin';
import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';
import { FormDialog, useApiAction } from './kit';
import { MergeFieldPicker } from './MergeFields';
import { MergePreviewDialog } from './MergePreview';

export interface Template {
  id: number;
  name: string;
  subject: string;
  body: string;
  isShared: boolean;
}

const STARTER = {
  name: '',
  subject: 'Hello %contact_first_name%',
  body: '<p>Hi %contact_first_name%,</p>\n<p></p>\n<p>%agent_name%<br>%agent_phone%</p>',
  isShared: true,
};

function TemplateDialog({ template, onClose }: { template: Template | null; onClose: () => void }) {
  const act = useApiAction(['templates']);
  return (
    <FormDialog
      resource="templates"
      title={template ? `Edit template ${template.name}` : 'New email template'}
      record={template ?? STARTER}
      onClose={onClose}
      onSubmit={(values) => {
        const body = {
          name: values.name,
          subject: values.subject ?? '',
          body: values.body ?? '',
          isShared: Boolean(values.isShared),
        };
        return act(
          () =>
            template
              ? apiFetch(`/v1/templates/${template.id}`, { method: 'PUT', body })
              : apiFetch('/v1/templates', { method: 'POST', body }),
          `Template ${String(values.name)} saved`,
        );
      }}
    >
      <TextInput source="name" label="Template name" validate={required()} fullWidth />
      <MergeFieldPicker fields={['subject', 'body']}>
        <TextInput source="subject" label="Subject" fullWidth />
        <TextInput
          source="body"
          label="Body (HTML or plain text)"
          multiline
          minRows={6}
          fullWidth
          helperText={false}
        />
      </MergeFieldPicker>
      <BooleanInput source="isShared" label="Shared with the whole team" helperText={false} />
    </FormDialog>
  );
}

function Actions({
  record,
  onPreview,
  onEdit,
  onDelete,
}: {
  record: Template;
  onPreview: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }}>
      <Button size="small" aria-label={`Preview ${record.name}`} onClick={onPreview}>
        Preview
      </Button>
      <Button size="small" aria-label={`Edit template ${record.name}`} onClick={onEdit}>
        Edit
      </Button>
      <Button
        size="small"
        color="error"
        aria-label={`Delete template ${record.name}`}
        onClick={onDelete}
      >
        Delete
      </Button>
    </Stack>
  );
}

/** Email templates: subject and body with merge fields, and how they read for a chosen person. */
export function TemplatesScreen() {
  const act = useApiAction(['templates']);
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [previewing, setPreviewing] = useState<Template | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  return (
    <>
      <PageHeading>Email templates</PageHeading>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography color="text.secondary">
          Merge fields such as %contact_first_name% are filled in for each person. Preview a
          template for anyone you can see.
        </Typography>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'center' } }}
          onClick={() => setEditing('new')}
        >
          New template
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <ListBase
          resource="templates"
          perPage={100}
          sort={{ field: 'name', order: 'ASC' }}
          disableSyncWithLocation
        >
          <DataTable
            rowClick={false}
            bulkActionButtons={false}
            empty={
              <Alert severity="info" sx={{ m: 2 }}>
                No templates yet.
              </Alert>
            }
          >
            <DataTable.Col
              source="name"
              label="Template"
              render={(record: RaRecord) => (
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {record.name}
                  </Typography>
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ overflowWrap: 'anywhere' }}
                  >
                    {record.subject || 'No subject'}
                  </Typography>
                </Box>
              )}
            />
            <DataTable.Col
              source="isShared"
              label="Shared"
              disableSort
              render={(record: RaRecord) =>
                record.isShared ? (
                  <Chip size="small" label="Team" />
                ) : (
                  <Chip size="small" variant="outlined" label="Private" />
                )
              }
            />
            <DataTable.Col
              label="Actions"
              align="right"
              disableSort
              render={(record: RaRecord) => (
                <Actions
                  record={record as Template}
                  onPreview={() => setPreviewing(record as Template)}
                  onEdit={() => setEditing(record as Template)}
                  onDelete={() => setDeleting(record as Template)}
                />
              )}
            />
          </DataTable>
        </ListBase>
      </Paper>
      {editing ? (
        <TemplateDialog
          template={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {previewing ? (
        <MergePreviewDialog template={previewing} onClose={() => setPreviewing(null)} />
      ) : null}
      {deleting ? (
        <Confirm
          isOpen
          title={`Delete template ${deleting.name}?`}
          content="A template that an action plan sends cannot be deleted until the plan stops using it."
          confirm="Delete"
          confirmColor="warning"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await act(
              () => apiFetch(`/v1/templates/${deleting.id}`, { method: 'DELETE' }),
              `${deleting.name} deleted`,
            );
            setDeleting(null);
          }}
        />
      ) : null}
    </>
  );
}
