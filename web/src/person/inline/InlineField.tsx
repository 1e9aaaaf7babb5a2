import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';
import { helperOf, useInlineSave, type FieldState } from './useInlineSave';

const asText = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * A field edited in place: saved when it loses focus or on Enter (Ctrl+Enter in a multi-line
 * one), "Saved" beneath it once the server has it, the server's error there when not; Escape
 * puts back the saved value. A value changed elsewhere shows unless the field is being edited.
 */
export function InlineField({
  label,
  value,
  toPatch,
  type,
  multiline,
  fullWidth,
  helperText,
  inputMode,
}: {
  label: string;
  value: unknown;
  /** The PUT body for a new text; throw an Error to refuse it (its message is shown). */
  toPatch: (text: string) => Record<string, unknown>;
  type?: string;
  multiline?: boolean;
  fullWidth?: boolean;
  helperText?: string;
  inputMode?: 'numeric' | 'decimal' | 'email' | 'tel';
}) {
  const save = useInlineSave();
  const saved = asText(value);
  const [draft, setDraft] = useState(saved);
  const [state, setState] = useState<FieldState>({ kind: 'idle' });
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setDraft(saved);
  }, [saved]);

  async function commit() {
    editing.current = false;
    if (draft === saved) return;
    setState({ kind: 'saving' });
    try {
      await save(label, toPatch(draft.trim() === '' ? '' : draft));
      setState({ kind: 'saved' });
    } catch (failure) {
      editing.current = true;
      setState({ kind: 'error', message: (failure as Error).message });
    }
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      editing.current = false;
      setDraft(saved);
      setState({ kind: 'idle' });
    } else if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void commit();
    }
  }
  const props: TextFieldProps = {
    label,
    value: draft,
    type,
    multiline,
    minRows: multiline ? 2 : undefined,
    fullWidth,
    error: state.kind === 'error',
    helperText: helperOf(state, helperText) ?? ' ',
    onChange: (e) => {
      editing.current = true;
      setDraft(e.target.value);
      if (state.kind !== 'idle') setState({ kind: 'idle' });
    },
    onBlur: () => void commit(),
    onKeyDown,
    slotProps: {
      htmlInput: { inputMode },
      inputLabel: type === 'date' ? { shrink: true } : undefined,
      formHelperText: { sx: state.kind === 'saved' ? { color: 'success.dark' } : undefined },
    },
  };
  return <TextField {...props} />;
}
