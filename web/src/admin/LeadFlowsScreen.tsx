import { useState } from 'react';
import {
  DataTable,
  FormDataConsumer,
  RadioButtonGroupInput,
  SelectInput,
  TextInput,
  required,
  useGetList,
  type RaRecord,
} from 'react-admin';
import { Box, Chip, Stack, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';
import { ConfirmDelete } from './ConfirmDelete';
import { FormDialog, RowActions, WHOLE_LIST, useApiAction, usePhone, type Named } from './kit';
import { ListSection } from './ListSection';
import { RecordTable } from './RecordTable';
import { GroupsSection, useRoutingChoices } from './GroupsSection';
import type { LeadFlow } from '../api/types';

const STATUSES = [
  { id: 'Active', name: 'Active' },
  { id: 'Archived', name: 'Archived: leads from this source are ignored' },
];
const ASSIGNEES = [
  { id: 'owner', name: 'The account owner' },
  { id: 'user', name: 'A user' },
  { id: 'group', name: 'A group' },
];

function useFlowChoices() {
  const routing = useRoutingChoices();
  const stages = useGetList<Named>('stages', WHOLE_LIST);
  const plans = useGetList<Named>('actionPlans', WHOLE_LIST);
  return { ...routing, stages: stages.data ?? [], plans: plans.data ?? [] };
}

function FlowDialog({ flow, onClose }: { flow: LeadFlow | null; onClose: () => void }) {
  const act = useApiAction(['leadFlows']);
  const { users, groups, stages, plans } = useFlowChoices();
  const assignTo = flow?.groupId ? 'group' : flow?.assignedUserId ? 'user' : 'owner';
  return (
    <FormDialog
      resource="leadFlows"
      title={flow ? `Edit lead flow ${flow.source}` : 'New lead flow'}
      record={flow ? { ...flow, assignTo } : { status: 'Active', assignTo: 'owner' }}
      onClose={onClose}
      onSubmit={(values) => {
        const body = {
          source: values.source,
          status: values.status,
          assignedUserId: values.assignTo === 'user' ? values.assignedUserId || null : null,
          groupId: values.assignTo === 'group' ? values.groupId || null : null,
          stageId: values.stageId || null,
          actionPlanId: values.actionPlanId || null,
        };
        return act(
          () =>
            flow
              ? apiFetch(`/v1/leadFlows/${flow.id}`, { method: 'PUT', body })
              : apiFetch('/v1/leadFlows', { method: 'POST', body }),
          `Lead flow ${String(values.source)} saved`,
        );
      }}
    >
      <TextInput
        source="source"
        label="Lead source"
        validate={required()}
        helperText="The source leads arrive with, e.g. a website's domain"
        fullWidth
      />
      <SelectInput source="status" label="Status" choices={STATUSES} helperText={false} />
      <RadioButtonGroupInput
        source="assignTo"
        label="New leads go to"
        choices={ASSIGNEES}
        helperText={false}
      />
      <FormDataConsumer<{ assignTo?: string }>>
        {({ formData }) =>
          formData.assignTo === 'user' ? (
            <SelectInput
              source="assignedUserId"
              label="User"
              choices={users}
              validate={required()}
              helperText={false}
            />
          ) : formData.assignTo === 'group' ? (
            <SelectInput
              source="groupId"
              label="Group"
              choices={groups}
              validate={required()}
              helperText={false}
            />
          ) : null
        }
      </FormDataConsumer>
      <SelectInput
        source="stageId"
        label="Put new leads in stage"
        choices={stages}
        emptyText="Lead (the default)"
        helperText={false}
      />
      <SelectInput
        source="actionPlanId"
        label="Start action plan"
        choices={plans}
        emptyText="None"
        helperText={false}
      />
    </FormDialog>
  );
}

function Destination({ flow }: { flow: LeadFlow }) {
  const { users, groups, stages, plans } = useFlowChoices();
  const name = (list: Named[], id: number | null) => list.find((x) => x.id === id)?.name;
  const to = flow.groupId
    ? `Group ${name(groups, flow.groupId) ?? flow.groupId}`
    : flow.assignedUserId
      ? (name(users, flow.assignedUserId) ?? `User ${flow.assignedUserId}`)
      : 'Account owner';
  const extras = [
    flow.stageId ? `stage ${name(stages, flow.stageId) ?? flow.stageId}` : null,
    flow.actionPlanId ? `plan ${name(plans, flow.actionPlanId) ?? flow.actionPlanId}` : null,
  ].filter(Boolean);
  return (
    <Box>
      <Typography variant="body2">{to}</Typography>
      {extras.length ? (
        <Typography variant="body2" color="text.secondary">
          {extras.join(' · ')}
        </Typography>
      ) : null}
    </Box>
  );
}

function LeadFlowsSection() {
  const phone = usePhone();
  const [editing, setEditing] = useState<LeadFlow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<LeadFlow | null>(null);
  return (
    <ListSection
      headingId="lead-flows-heading"
      title="Lead flows"
      addLabel="New lead flow"
      onAdd={() => setEditing('new')}
    >
      <RecordTable
        resource="leadFlows"
        empty="No lead flows yet: new leads go to the account owner."
        actions={(record) => (
          <RowActions
            label={`lead flow ${record.source}`}
            onEdit={() => setEditing(record as LeadFlow)}
            onDelete={() => setDeleting(record as LeadFlow)}
          />
        )}
      >
        <DataTable.Col
          source="source"
          label="Source"
          disableSort
          render={(record: RaRecord) => (
            <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {record.source}
              </Typography>
              <Chip
                size="small"
                variant="outlined"
                label={record.status}
                color={record.status === 'Active' ? 'success' : 'default'}
              />
              {phone ? <Destination flow={record as LeadFlow} /> : null}
            </Stack>
          )}
        />
        {phone ? null : (
          <DataTable.Col
            label="New leads go to"
            disableSort
            render={(record: RaRecord) => <Destination flow={record as LeadFlow} />}
          />
        )}
      </RecordTable>
      {editing ? (
        <FlowDialog flow={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          title={`Delete lead flow ${deleting.source}?`}
          content="Leads from this source then follow the default flow."
          path={`/v1/leadFlows/${deleting.id}`}
          done={`${deleting.source} deleted`}
          resources={['leadFlows']}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </ListSection>
  );
}

/** Where new leads go, per source (lead flows), and the groups that share them. */
export function LeadFlowsScreen() {
  return (
    <>
      <PageHeading>Lead flows and groups</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        A lead flow decides, for each lead source, who gets new leads, their stage and the action
        plan they start. Groups share leads round robin or first to claim.
      </Typography>
      <Stack spacing={4}>
        <LeadFlowsSection />
        <GroupsSection />
      </Stack>
    </>
  );
}
