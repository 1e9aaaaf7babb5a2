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
import type { TextMessageTemplate } from '../api/types';

const RESOURCE = 'textMessageTemplates';
const STARTER = {
  name: '',
  message: 'Hi %contact_first_name%, this is %agent_first_name%. ',
  isShared: true,
};

function TextTemplateDialog({
  template,
  onClose,
}: {
  template: TextMessageTemplate | null;
  onClose: () => void;
}) {
  const act = useApiAction([RESOURCE]);
  return (
    <FormDialog
      resource={RESOURCE}
      title={template ? `Edit text template ${template.name}` : 'New text template'}
      record={template ?? STARTER}
      onClose={onClose}
      onSubmit={(values) => {
        const body = {
          name: values.name,
          message: values.message ?? '',
          isShared: Boolean(values.isShared),
        };
        return act(
          () =>
            template
              ? apiFetch(`/v1/textMessageTemplates/${template.id}`, { method: 'PUT', body })
              : apiFetch('/v1/textMessageTemplates', { method: 'POST', body }),
          `Text template ${String(values.name)} saved`,
        );
      }}
    >
      <TextInput source="name" label="Template name" validate={required()} fullWidth />
      <MergeFieldPicker fields={['message']} where="the message">
        <TextInput
          source="message"
          label="Message"
          validate={required()}
          multiline
          minRows={4}
          fullWidth
          helperText="A text over 160 characters arrives as several messages"
        />
      </MergeFieldPicker>
      <BooleanInput source="isShared" label="Shared with the whole team" helperText={false} />
    </FormDialog>
  );
}

/** Text message templates: a message with merge fields, and how it reads for a chosen person. */
export function TextTemplatesScreen() {
  const phone = usePhone();
  const [editing, setEditing] = useState<TextMessageTemplate | 'new' | null>(null);
  const [previewing, setPreviewing] = useState<TextMessageTemplate | null>(null);
  const [deleting, setDeleting] = useState<TextMessageTemplate | null>(null);
  return (
    <>
      <PageHeading>Text message templates</PageHeading>
      <ScreenIntro addLabel="New text template" onAdd={() => setEditing('new')}>
        Ready-made texts for agents and action plans. Merge fields such as %contact_first_name% are
        filled in for each person.
      </ScreenIntro>
      <RecordTable
        resource={RESOURCE}
        what="the text templates"
        sort={{ field: 'name', order: 'ASC' }}
        empty="No text templates yet."
        actions={(record) => (
          <RowActions
            label={`text template ${record.name}`}
            onEdit={() => setEditing(record as TextMessageTemplate)}
            onDelete={() => setDeleting(record as TextMessageTemplate)}
          >
            <Button
              size="small"
              aria-label={`Preview ${record.name}`}
              onClick={() => setPreviewing(record as TextMessageTemplate)}
            >
              Preview
            </Button>
          </RowActions>
        )}
      >
        {templateColumns(phone, (record) => record.message || 'Empty message')}
      </RecordTable>
      {editing ? (
        <TextTemplateDialog
          template={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {previewing ? (
        <MergePreviewDialog template={previewing} kind="text" onClose={() => setPreviewing(null)} />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          title={`Delete text template ${deleting.name}?`}
          content="A template that an action plan sends cannot be deleted until the plan stops using it."
          path={`/v1/textMessageTemplates/${deleting.id}`}
          done={`Text template ${deleting.name} deleted`}
          resources={[RESOURCE]}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}
