import {
  CreateButton,
  DataTable,
  DateField,
  FilterButton,
  List,
  ReferenceInput,
  SelectInput,
  TextInput,
  TopToolbar,
  useListContext,
  type RaRecord,
} from 'react-admin';
import {
  Box,
  Chip,
  InputAdornment,
  Stack,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { Link } from 'react-router-dom';
import { CursorPagination } from '../layout/CursorPagination';
import { PageHeading } from '../layout/PageHeading';
import { peopleListActions } from '../extensions';
import { BulkActions, SelectPage, SelectPerson } from './BulkActions';

const peopleFilters = [
  <TextInput
    key="q"
    source="q"
    label="Search"
    alwaysOn
    resettable
    slotProps={{
      input: {
        startAdornment: (
          <InputAdornment position="start">
            <SearchIcon fontSize="small" />
          </InputAdornment>
        ),
      },
    }}
  />,
  <ReferenceInput
    key="stage"
    source="stageId"
    reference="stages"
    sort={{ field: 'id', order: 'DESC' }}
    perPage={100}
  >
    <SelectInput label="Stage" optionText="name" />
  </ReferenceInput>,
  <TextInput key="tags" source="tags" label="Tag" />,
  <ReferenceInput
    key="agent"
    source="assignedUserId"
    reference="users"
    sort={{ field: 'id', order: 'DESC' }}
    perPage={100}
  >
    <SelectInput label="Assigned agent" optionText="name" />
  </ReferenceInput>,
  <TextInput key="source" source="source" label="Source" />,
  <ReferenceInput
    key="smartList"
    source="smartListId"
    reference="smartLists"
    sort={{ field: 'id', order: 'DESC' }}
    perPage={100}
  >
    <SelectInput label="Smart list" optionText="name" />
  </ReferenceInput>,
];

/** The person's name linking to their page; `tall` makes it a 44 px tap target on a phone. */
export function PersonLink({ record, tall }: { record: RaRecord; tall?: boolean }) {
  const style = tall ? { display: 'flex', alignItems: 'center', minHeight: 44 } : {};
  return (
    <Link to={`/people/${record.id}`} style={{ color: 'inherit', fontWeight: 600, ...style }}>
      {record.name || 'Unnamed person'}
    </Link>
  );
}

function Tags({ record }: { record: RaRecord }) {
  const tags = (record.tags as string[] | undefined) ?? [];
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {tags.slice(0, 4).map((tag) => (
        <Chip key={tag} label={tag} size="small" />
      ))}
    </Stack>
  );
}

/** Phones get one line per person: name (the link), stage and agent beneath. */
function PhoneRows() {
  const { data, isPending } = useListContext();
  if (isPending) return null;
  if (!data?.length) return <Typography sx={{ p: 2 }}>No people match.</Typography>;
  return (
    <>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          pl: 0.5,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <SelectPage />
        <Typography variant="body2" color="text.secondary" aria-hidden>
          Select all on this page
        </Typography>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, pb: 8 }}>
        {data.map((record) => (
          <Box
            component="li"
            key={record.id}
            sx={{
              display: 'flex',
              alignItems: 'center',
              pl: 0.5,
              pr: 2,
              py: 0.75,
              borderBottom: 1,
              borderColor: 'divider',
            }}
          >
            <SelectPerson id={record.id} name={record.name} />
            <Box sx={{ minWidth: 0 }}>
              <PersonLink record={record} tall />
              <Typography variant="body2" color="text.secondary">
                {[record.stage, record.assignedTo, record.source].filter(Boolean).join(' · ')}
              </Typography>
            </Box>
          </Box>
        ))}
      </Box>
    </>
  );
}

function ListActions() {
  return (
    <TopToolbar>
      <FilterButton />
      <CreateButton label="New person" />
      {peopleListActions()}
    </TopToolbar>
  );
}

export function PeopleList() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <>
      <PageHeading>People</PageHeading>
      <List
        title={false}
        filters={peopleFilters}
        actions={<ListActions />}
        perPage={25}
        pagination={<CursorPagination />}
        sort={{ field: 'id', order: 'DESC' }}
        exporter={false}
        empty={false}
        disableSyncWithLocation={false}
      >
        <BulkActions />
        {phone ? (
          <PhoneRows />
        ) : (
          <DataTable rowClick={false} bulkActionButtons={false}>
            <DataTable.Col
              source="id"
              label={<SelectPage />}
              disableSort
              render={(record) => <SelectPerson id={record.id} name={record.name as string} />}
            />
            <DataTable.Col
              source="name"
              label="Name"
              render={(record) => <PersonLink record={record as RaRecord} />}
            />
            <DataTable.Col source="stage" label="Stage" disableSort />
            <DataTable.Col source="assignedTo" label="Agent" disableSort />
            <DataTable.Col source="source" label="Source" disableSort />
            <DataTable.Col
              source="tags"
              label="Tags"
              disableSort
              render={(record) => <Tags record={record as RaRecord} />}
            />
            <DataTable.Col source="created" label="Created">
              <DateField source="created" />
            </DataTable.Col>
            <DataTable.Col source="lastActivity" label="Last activity">
              <DateField source="lastActivity" showTime />
            </DataTable.Col>
          </DataTable>
        )}
      </List>
    </>
  );
}
