import { useRef, type FocusEvent, type ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { Box, MenuItem, TextField } from '@mui/material';

/**
 * The merge fields of the interface (part 1, "Merge fields"), which the API replaces in template
 * subjects and bodies (src/marketing/templates/merge-fields.ts).
 */
export const MERGE_FIELDS: { token: string; label: string }[] = [
  { token: 'contact_name', label: 'Contact: name' },
  { token: 'contact_first_name', label: 'Contact: first name' },
  { token: 'contact_last_name', label: 'Contact: last name' },
  { token: 'contact_email', label: 'Contact: email' },
  { token: 'contact_phone', label: 'Contact: phone' },
  { token: 'contact_address', label: 'Contact: address' },
  { token: 'contact_street', label: 'Contact: street' },
  { token: 'contact_city', label: 'Contact: city' },
  { token: 'contact_state', label: 'Contact: state' },
  { token: 'contact_zipcode', label: 'Contact: ZIP code' },
  { token: 'contact_country', label: 'Contact: country' },
  { token: 'contact_rels_first_name', label: 'Recipients: first names' },
  { token: 'source_name', label: 'Lead source' },
  { token: 'inquiry_address', label: 'Address of the last inquiry' },
  { token: 'agent_name', label: 'Agent: name' },
  { token: 'agent_first_name', label: 'Agent: first name' },
  { token: 'agent_last_name', label: 'Agent: last name' },
  { token: 'agent_email', label: 'Agent: email' },
  { token: 'agent_phone', label: 'Agent: phone' },
];

interface Caret {
  field: string;
  start: number;
  end: number;
}

/**
 * Wraps the text inputs a merge field may go into (by their `name`) and adds an "Insert merge
 * field" picker: the chosen %token% goes where the caret was in the field last used (the last
 * field when none was), replacing any selected text.
 */
export function MergeFieldPicker({
  fields,
  where = 'the subject or body',
  children,
}: {
  fields: string[];
  /** The fields, as the picker's help names them: "the message". */
  where?: string;
  children: ReactNode;
}) {
  const { getValues, setValue } = useFormContext();
  const caret = useRef<Caret | null>(null);

  function remember(event: FocusEvent<HTMLDivElement>) {
    const input = event.target as HTMLInputElement | HTMLTextAreaElement;
    if (!fields.includes(input.name)) return;
    caret.current = {
      field: input.name,
      start: input.selectionStart ?? input.value.length,
      end: input.selectionEnd ?? input.value.length,
    };
  }

  function insert(token: string) {
    const fallback = fields[fields.length - 1]!;
    const where = caret.current ?? { field: fallback, start: -1, end: -1 };
    const text = String(getValues(where.field) ?? '');
    const start = where.start < 0 ? text.length : Math.min(where.start, text.length);
    const end = where.end < 0 ? text.length : Math.min(where.end, text.length);
    const tag = `%${token}%`;
    setValue(where.field, text.slice(0, start) + tag + text.slice(end), {
      shouldDirty: true,
    });
    caret.current = { field: where.field, start: start + tag.length, end: start + tag.length };
  }

  return (
    <>
      <Box onBlur={remember}>{children}</Box>
      <TextField
        select
        size="small"
        label="Insert merge field"
        value=""
        // Always empty: choosing inserts the token, the picker stays ready for the next one.
        helperText={`Goes where the cursor was in ${where}. %contact_first_name|there% writes “there” when the field is empty.`}
        onChange={(event) => insert(event.target.value)}
        sx={{ minWidth: 260, mt: 1 }}
      >
        {MERGE_FIELDS.map((field) => (
          <MenuItem key={field.token} value={field.token}>
            {field.label} — %{field.token}%
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}
