import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useEditContext, useGetList, type RaRecord } from 'react-admin';
import { Box, FormControlLabel, Stack, Switch, Typography } from '@mui/material';
import { fetchAll } from '../api/lists';
import { apiFetch } from '../api/http';
import { InlineField } from './inline/InlineField';
import { InlineList } from './inline/InlineList';
import { InlineSelect, type Choice } from './inline/InlineSelect';
import { InlineTags } from './inline/InlineTags';
import { InlineSaveContext, type InlineSave } from './inline/useInlineSave';
import type { CustomField } from '../api/types';

const text = (key: string) => (value: string) => ({ [key]: value });
const nullable = (key: string) => (value: string) => ({ [key]: value === '' ? null : value });
const idOrNull = (key: string) => (value: string) => ({
  [key]: value === '' ? null : Number(value),
});

/** A number typed by a person ("325,000"), or an error they can act on. */
function amount(key: string, label: string) {
  return (value: string) => {
    if (value === '') return { [key]: null };
    const number = Number(value.replace(/[,\s]/g, ''));
    if (!Number.isFinite(number)) throw new Error(`${label} must be a number, like 325000`);
    return { [key]: number };
  };
}

function CustomFieldInput({ field, value }: { field: CustomField; value: unknown }) {
  const props = { label: field.label, value, fullWidth: true };
  switch (field.type) {
    case 'number':
      return (
        <InlineField {...props} inputMode="decimal" toPatch={amount(field.name, field.label)} />
      );
    case 'date':
      return <InlineField {...props} type="date" toPatch={nullable(field.name)} />;
    case 'dropdown':
      return (
        <InlineSelect
          label={field.label}
          value={String(value ?? '')}
          choices={(field.choices ?? []).map((c) => ({ value: c, label: c }))}
          emptyLabel="None"
          toPatch={nullable(field.name)}
        />
      );
    default:
      return <InlineField {...props} toPatch={nullable(field.name)} />;
  }
}

function useChoices(resource: 'users' | 'stages', filter = {}): Choice[] {
  const { data } = useGetList(resource, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'DESC' },
    filter,
  });
  return (data ?? []).map((r: RaRecord) => ({ value: String(r.id), label: String(r.name) }));
}

/** Saving: one PUT of the changed field, then the person read again (header, timeline facts). */
function useSave(id: number, announce: (message: string) => void): InlineSave {
  const { refetch } = useEditContext();
  return useCallback(
    async (label, patch) => {
      announce(`Saving ${label}…`);
      try {
        await apiFetch(`/v1/people/${id}`, { method: 'PUT', body: patch });
      } catch (failure) {
        announce(`${label} not saved`);
        throw failure;
      }
      await refetch?.();
      announce(`${label} saved`);
    },
    [id, refetch, announce],
  );
}

const stripNormalized = ({ normalized: _n, ...phone }: Record<string, unknown>) => phone;

/** Every field of a person, each edited in place and saved on its own (no form, no Save). */
export function PersonDetails() {
  const { record } = useEditContext();
  const [notice, setNotice] = useState('');
  const save = useSave(Number(record?.id), setNotice);
  const stages = useChoices('stages');
  const users = useChoices('users');
  const lenders = useChoices('users', { role: 'Lender' });
  const customFields = useQuery({
    queryKey: ['customFields'],
    queryFn: () => fetchAll<CustomField>('/v1/customFields?limit=100'),
  });
  if (!record) return null;
  return (
    <InlineSaveContext.Provider value={save}>
      <Typography
        role="status"
        variant="body2"
        color="text.secondary"
        sx={{ px: 2, minHeight: 20 }}
      >
        {notice}
      </Typography>
      <Box sx={{ p: 2, pt: 1 }}>
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
            columnGap: 2,
            rowGap: 0.5,
          }}
        >
          <InlineField label="First name" value={record.firstName} toPatch={text('firstName')} />
          <InlineField label="Last name" value={record.lastName} toPatch={text('lastName')} />
          <InlineSelect
            label="Stage"
            value={String(record.stageId ?? '')}
            choices={stages}
            toPatch={idOrNull('stageId')}
          />
          <InlineField label="Source" value={record.source} toPatch={text('source')} />
          <InlineSelect
            label="Assigned agent"
            value={String(record.assignedUserId ?? '')}
            choices={users}
            emptyLabel="Nobody"
            toPatch={idOrNull('assignedUserId')}
          />
          <InlineSelect
            label="Assigned lender"
            value={String(record.assignedLenderId ?? '')}
            choices={lenders}
            emptyLabel="Nobody"
            toPatch={idOrNull('assignedLenderId')}
          />
          <InlineField
            label="Price"
            value={record.price}
            inputMode="decimal"
            toPatch={amount('price', 'Price')}
          />
          <FormControlLabel
            control={
              <Switch
                checked={Boolean(record.contacted)}
                onChange={(e) =>
                  void save('Contacted', { contacted: e.target.checked }).catch(() => {})
                }
              />
            }
            label="Contacted"
          />
        </Box>
        <Stack spacing={1} sx={{ mt: 1 }}>
          <InlineTags tags={(record.tags as string[] | undefined) ?? []} />
          <InlineField
            label="Background"
            value={record.background}
            multiline
            fullWidth
            helperText="Saved when you leave the field (or Ctrl+Enter)"
            toPatch={text('background')}
          />
        </Stack>
        <InlineList
          title="Emails"
          source="emails"
          items={record.emails ?? []}
          fields={[
            { key: 'value', label: 'Email address', type: 'email', inputMode: 'email', wide: true },
            { key: 'type', label: 'Kind' },
          ]}
          describe={(item) => String(item.value ?? '')}
        />
        <InlineList
          title="Phones"
          source="phones"
          items={record.phones ?? []}
          fields={[
            { key: 'value', label: 'Phone number', type: 'tel', inputMode: 'tel', wide: true },
            { key: 'type', label: 'Kind' },
          ]}
          describe={(item) => String(item.value ?? '')}
          clean={stripNormalized}
        />
        <InlineList
          title="Addresses"
          source="addresses"
          items={record.addresses ?? []}
          fields={[
            { key: 'street', label: 'Street', wide: true },
            { key: 'city', label: 'City' },
            { key: 'state', label: 'State' },
            { key: 'code', label: 'Postal code' },
            { key: 'country', label: 'Country' },
          ]}
          describe={(item) => [item.street, item.city].filter(Boolean).join(', ')}
        />
        {customFields.data?.length ? (
          <Typography variant="subtitle1" component="h3" sx={{ mt: 2, mb: 1, fontWeight: 600 }}>
            Custom fields
          </Typography>
        ) : null}
        {(customFields.data ?? []).map((field) => (
          <CustomFieldInput key={field.id} field={field} value={record[field.name]} />
        ))}
      </Box>
    </InlineSaveContext.Provider>
  );
}
