import { useState } from 'react';
import { BooleanInput, TextInput, required } from 'react-admin';
import { Button } from '@mui/material';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDelete } from './ConfirmDelete';
import { FormDialog, RowActions, useApiAction, usePhone } from './kit';
import { MergeFieldPicker } from './MergeFields';
import { MergePreviewDialog } from './MergePreview';
import { RecordTable } from './RecordTable';
import { templateColumns } from './TemplateColumns';
import { ScreenIntro } from './ScreenIntro';
import type { Template } from '../api/types';

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

/** Email templates: subject and body with merge fields, and how they read for a chosen person. */
export function TemplatesScreen() {
  const phone = usePhone();
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [previewing, setPreviewing] = useState<Template | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  return (
    <>
      <PageHeading>Email templates</PageHeading>
      <ScreenIntro addLabel="New template" onAdd={() => setEditing('new')}>
        Merge fields such as %contact_first_name% are filled in for each person. Preview a template
        for anyone you can see.
      </ScreenIntro>
      <RecordTable
        resource="templates"
        sort={{ field: 'name', order: 'ASC' }}
        empty="No templates yet."
        actions={(record) => (
          <RowActions
            label={`template ${record.name}`}
            onEdit={() => setEditing(record as Template)}
            onDelete={() => setDeleting(record as Template)}
          >
            <Button
              size="small"
              aria-label={`Preview ${record.name}`}
              onClick={() => setPreviewing(record as Template)}
            >
              Preview
            </Button>
          </RowActions>
        )}
      >
        {templateColumns(phone, (record) => record.subject || 'No subject')}
      </RecordTable>
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
        <ConfirmDelete
          title={`Delete template ${deleting.name}?`}
          content="A template that an action plan sends cannot be deleted until the plan stops using it."
          path={`/v1/templates/${deleting.id}`}
          done={`${deleting.name} deleted`}
          resources={['templates']}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}
