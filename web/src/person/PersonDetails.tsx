import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  ArrayInput,
  BooleanInput,
  DateInput,
  NumberInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextArrayInput,
  TextInput,
  Toolbar,
  type RaRecord,
} from 'react-admin';
import { Box, Typography } from '@mui/material';
import { fetchAll } from '../api/lists';

interface CustomField {
  id: number;
  name: string;
  label: string;
  type: string;
  choices?: string[];
}

function CustomFieldInput({ field }: { field: CustomField }) {
  const props = { source: field.name, label: field.label, fullWidth: true };
  switch (field.type) {
    case 'number':
      return <NumberInput {...props} />;
    case 'date':
      return <DateInput {...props} />;
    case 'dropdown':
      return (
        <SelectInput {...props} choices={(field.choices ?? []).map((c) => ({ id: c, name: c }))} />
      );
    default:
      return <TextInput {...props} />;
  }
}

function Section({ title, id }: { title: string; id?: string }) {
  return (
    <Typography id={id} variant="subtitle1" component="h2" sx={{ mt: 2, fontWeight: 600 }}>
      {title}
    </Typography>
  );
}

/** A list of values (emails, phones, addresses) named by its heading, so its Add button is too. */
function ListGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = `person-${title.toLowerCase()}`;
  return (
    <Box role="group" aria-labelledby={id} sx={{ width: '100%' }}>
      <Section title={title} id={id} />
      {children}
    </Box>
  );
}

/** Phones come back with `normalized`, which the API computes and does not accept back. */
export function toPersonUpdate(data: RaRecord): RaRecord {
  const phones = Array.isArray(data.phones)
    ? data.phones.map(({ normalized: _n, ...phone }: Record<string, unknown>) => phone)
    : data.phones;
  const {
    collaborators: _c,
    name: _name,
    stage: _stage,
    assignedTo: _a,
    assignedLenderName: _l,
    ...rest
  } = data;
  return { ...rest, phones };
}

/** Every field of a person, editable; saved with one PUT of the changed fields. */
export function PersonDetails() {
  const customFields = useQuery({
    queryKey: ['customFields'],
    queryFn: () => fetchAll<CustomField>('/v1/customFields?limit=100'),
  });
  return (
    <SimpleForm toolbar={<Toolbar sx={{ '&.RaToolbar-mobileToolbar': { position: 'static' } }} />}>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          columnGap: 2,
          width: '100%',
        }}
      >
        <TextInput source="firstName" label="First name" />
        <TextInput source="lastName" label="Last name" />
        <ReferenceInput
          source="stageId"
          reference="stages"
          sort={{ field: 'id', order: 'DESC' }}
          perPage={100}
        >
          <SelectInput label="Stage" optionText="name" />
        </ReferenceInput>
        <TextInput source="source" label="Source" />
        <ReferenceInput
          source="assignedUserId"
          reference="users"
          sort={{ field: 'id', order: 'DESC' }}
          perPage={100}
        >
          <SelectInput label="Assigned agent" optionText="name" emptyText="Nobody" />
        </ReferenceInput>
        <ReferenceInput
          source="assignedLenderId"
          reference="users"
          filter={{ role: 'Lender' }}
          sort={{ field: 'id', order: 'DESC' }}
          perPage={100}
        >
          <SelectInput label="Assigned lender" optionText="name" emptyText="Nobody" />
        </ReferenceInput>
        <NumberInput source="price" label="Price" />
        <BooleanInput source="contacted" label="Contacted" format={(v) => Boolean(v)} />
      </Box>
      <TextArrayInput source="tags" label="Tags" fullWidth />
      <TextInput source="background" label="Background" multiline minRows={2} fullWidth />
      <ListGroup title="Emails">
        <ArrayInput source="emails" label={false}>
          <SimpleFormIterator inline disableReordering>
            <TextInput source="value" label="Email address" type="email" />
            <TextInput source="type" label="Kind" helperText={false} />
          </SimpleFormIterator>
        </ArrayInput>
      </ListGroup>
      <ListGroup title="Phones">
        <ArrayInput source="phones" label={false}>
          <SimpleFormIterator inline disableReordering>
            <TextInput source="value" label="Phone number" type="tel" />
            <TextInput source="type" label="Kind" helperText={false} />
          </SimpleFormIterator>
        </ArrayInput>
      </ListGroup>
      <ListGroup title="Addresses">
        <ArrayInput source="addresses" label={false}>
          <SimpleFormIterator inline disableReordering>
            <TextInput source="street" label="Street" />
            <TextInput source="city" label="City" />
            <TextInput source="state" label="State" />
            <TextInput source="code" label="Postal code" />
            <TextInput source="country" label="Country" />
          </SimpleFormIterator>
        </ArrayInput>
      </ListGroup>
      {customFields.data?.length ? <Section title="Custom fields" /> : null}
      {(customFields.data ?? []).map((field) => (
        <CustomFieldInput key={field.id} field={field} />
      ))}
    </SimpleForm>
  );
}
