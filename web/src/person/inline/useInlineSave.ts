import { createContext, useContext } from 'react';

/**
 * Saves one change of the person shown (a PUT of just that field) and says so in the page's one
 * live region ("Last name saved"); rejects with the server's message, which the field shows.
 */
export type InlineSave = (label: string, patch: Record<string, unknown>) => Promise<void>;

export const InlineSaveContext = createContext<InlineSave | null>(null);

export function useInlineSave(): InlineSave {
  const save = useContext(InlineSaveContext);
  if (!save) throw new Error('useInlineSave outside InlineSaveContext');
  return save;
}

/** What a field under edit shows beneath itself. */
export type FieldState =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

export const helperOf = (state: FieldState, fallback?: string): string | undefined =>
  state.kind === 'saving'
    ? 'Saving…'
    : state.kind === 'saved'
      ? 'Saved'
      : state.kind === 'error'
        ? state.message
        : fallback;
