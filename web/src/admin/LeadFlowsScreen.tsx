import { useState } from 'react';
import {
  Confirm,
  DataTable,
  FormDataConsumer,
  ListBase,
  RadioButtonGroupInput,
  SelectInput,
  TextInput,
  required,
  useGetList,
  type RaRecord,
} from 'react-admin';
import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { apiFetch } from '../api/http';
import { PageHeading } from '../layout/PageHeading';
import { FormDialog, RowActions, useApiAction, usePhone } from './kit';
import { GroupsSection, useRoutingChoices } from './GroupsSection';

interface LeadFlow {
  id: number;
  source: string;
  status: 'Active' | 'Archived';
  assignedUserId: number | null;
  groupId: number | null;
  actionPlanId: number | null;
  stageId: number | null;
}
interface Named {
  id: number;
  name: string;
}

const ALL = { pagination: { page: 1, perPage: 100 } };
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
  const stages = useGetList<Named>('stages', ALL);
  const plans = useGetList<Named>('actionPlans', ALL);
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
  const act = useApiAction(['leadFlows']);
  const [editing, setEditing] = useState<LeadFlow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<LeadFlow | null>(null);
  return (
    <Box component="section" aria-labelledby="lead-flows-heading">
      <Stack
        direction="row"
        spacing={2}
        sx={{ mb: 1, alignItems: 'center', justifyContent: 'space-between' }}
      >
        <Typography id="lead-flows-heading" variant="h6" component="h2">
          Lead flows
        </Typography>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
          New lead flow
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <ListBase resource="leadFlows" perPage={100} disableSyncWithLocation>
          <DataTable
            rowClick={false}
            bulkActionButtons={false}
            empty={
              <Alert severity="info" sx={{ m: 2 }}>
                No lead flows yet: new leads go to the account owner.
              </Alert>
            }
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
            <DataTable.Col
              label="Actions"
              align="right"
              disableSort
              render={(record: RaRecord) => (
                <RowActions
                  label={`lead flow ${record.source}`}
                  onEdit={() => setEditing(record as LeadFlow)}
                  onDelete={() => setDeleting(record as LeadFlow)}
                />
              )}
            />
          </DataTable>
        </ListBase>
      </Paper>
      {editing ? (
        <FlowDialog flow={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deleting ? (
        <Confirm
          isOpen
          title={`Delete lead flow ${deleting.source}?`}
          content="Leads from this source then follow the default flow."
          confirm="Delete"
          confirmColor="warning"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await act(
              () => apiFetch(`/v1/leadFlows/${deleting.id}`, { method: 'DELETE' }),
              `${deleting.source} deleted`,
            );
            setDeleting(null);
          }}
        />
      ) : null}
    </Box>
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
