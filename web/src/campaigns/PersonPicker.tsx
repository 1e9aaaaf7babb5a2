import { useEffect, useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { searchPeople, type PersonOption } from './api';

const describe = (p: PersonOption) =>
  p.emails?.[0]?.value ? `${p.name || 'No name'} (${p.emails[0].value})` : p.name || `#${p.id}`;

/** Finds people by name, email or phone as you type. */
function usePeopleSearch(text: string) {
  const [options, setOptions] = useState<PersonOption[]>([]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      searchPeople(text).then(
        (found) => live && setOptions(found),
        () => live && setOptions([]),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  return options;
}

export function PersonPicker({
  label,
  value,
  onChange,
  onType,
}: {
  label: string;
  value: PersonOption | null;
  onChange: (person: PersonOption | null) => void;
  /** Called when the user types in the field (not when a chosen value fills it). */
  onType?: () => void;
}) {
  const [text, setText] = useState('');
  const options = usePeopleSearch(text);
  return (
    <Autocomplete
      options={options}
      value={value}
      filterOptions={(o) => o}
      getOptionLabel={describe}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, chosen) => onChange(chosen)}
      onInputChange={(_, typed, reason) => {
        if (reason === 'input') onType?.();
        setText(typed);
      }}
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

export function PeoplePicker({
  label,
  value,
  onChange,
}: {
  label: string;
  value: PersonOption[];
  onChange: (people: PersonOption[]) => void;
}) {
  const [text, setText] = useState('');
  const options = usePeopleSearch(text);
  return (
    <Autocomplete
      multiple
      options={options}
      value={value}
      filterOptions={(o) => o}
      getOptionLabel={describe}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, chosen) => onChange(chosen)}
      onInputChange={(_, typed) => setText(typed)}
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}
