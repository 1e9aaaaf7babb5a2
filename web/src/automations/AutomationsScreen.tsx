import { useState } from 'react';
import { DataTable, type RaRecord } from 'react-admin';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDelete } from '../admin/ConfirmDelete';
import { RowActions, useApiAction } from '../admin/kit';
import { RecordTable } from '../admin/RecordTable';
import { ScreenIntro } from '../admin/ScreenIntro';
import { sentence, type Automation } from './model';
import { AutomationDialog } from './AutomationDialog';
import { useAutomationChoices } from './useNames';

function PauseButton({ automation }: { automation: Automation }) {
  const act = useApiAction(['automations']);
  const active = automation.status === 'Active';
  return (
    <Button
      size="small"
      aria-label={`${active ? 'Pause' : 'Resume'} automation ${automation.name}`}
      onClick={() =>
        act(
          () =>
            apiFetch(`/v1/automations/${automation.id}`, {
              method: 'PUT',
              body: { status: active ? 'Inactive' : 'Active' },
            }),
          `${automation.name} ${active ? 'paused' : 'resumed'}`,
        )
      }
    >
      {active ? 'Pause' : 'Resume'}
    </Button>
  );
}

/** Automations: a trigger, conditions and steps that act on people by themselves (Owner, Admin). */
export function AutomationsScreen() {
  const [editing, setEditing] = useState<Automation | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Automation | null>(null);
  const { name } = useAutomationChoices();
  return (
    <>
      <PageHeading>Automations</PageHeading>
      <ScreenIntro addLabel="New automation" onAdd={() => setEditing('new')}>
        An automation starts by itself when something happens to a person (a tag, a stage, a new
        lead, days without contact) and runs its steps in order. Action plans stay for steps you
        start by hand or from a lead flow.
      </ScreenIntro>
      <RecordTable
        resource="automations"
        sort={{ field: 'name', order: 'ASC' }}
        empty="No automations yet."
        actions={(record) => (
          <RowActions
            label={`automation ${record.name}`}
            onEdit={() => setEditing(record as Automation)}
            onDelete={() => setDeleting(record as Automation)}
          >
            <PauseButton automation={record as Automation} />
          </RowActions>
        )}
      >
        <DataTable.Col
          source="name"
          label="Automation"
          render={(record: RaRecord) => (
            <Box sx={{ maxWidth: 560 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography sx={{ fontWeight: 600 }}>{record.name}</Typography>
                <Chip
                  size="small"
                  variant="outlined"
                  label={record.status === 'Active' ? 'Active' : 'Paused'}
                  color={record.status === 'Active' ? 'success' : 'default'}
                />
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {sentence(record as Automation, name)}
              </Typography>
            </Box>
          )}
        />
        <DataTable.Col
          source="peopleRunning"
          label="People running"
          disableSort
          align="right"
          render={(record: RaRecord) => String(record.peopleRunning)}
        />
      </RecordTable>
      {editing ? (
        <AutomationDialog
          automation={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          title={`Delete automation ${deleting.name}?`}
          content="Its runs stop, and people on it are taken off it."
          path={`/v1/automations/${deleting.id}`}
          done={`${deleting.name} deleted`}
          resources={['automations']}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}
