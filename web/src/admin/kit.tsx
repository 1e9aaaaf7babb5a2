import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Form, ResourceContextProvider, SaveButton, useNotify, type RaRecord } from 'react-admin';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import type { HttpError } from 'react-admin';

/** A record as a choice in a select: its id and name. */
export interface Named {
  id: number;
  name: string;
}

/** useGetList's parameters for a whole short list: the API gives at most 100 on a page. */
export const WHOLE_LIST = { pagination: { page: 1, perPage: 100 } };

/** True on a phone-sized screen: dialogs take the whole screen, lists drop their columns. */
export function usePhone(): boolean {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
}

/** The API's field errors (`errors: [{field, message}]`, flattened by http.ts) for the form. */
function fieldErrors(failure: unknown): Record<string, string> | undefined {
  const errors = (failure as HttpError)?.body?.errors as Record<string, string> | undefined;
  if (!errors || Object.keys(errors).length === 0) return undefined;
  // react-hook-form names nested fields with dots: stages[0].name → stages.0.name
  return Object.fromEntries(
    Object.entries(errors).map(([field, message]) => [field.replace(/\[(\d+)\]/g, '.$1'), message]),
  );
}

/**
 * Runs a write against the API: says `done` when it worked, the API's errorMessage when not, and
 * refreshes what the screen shows of the given resources (react-admin caches lists per resource).
 * Resolves to the field errors of a refused write (undefined when it worked or had none).
 */
export function useApiAction(resources: string[]) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  return async (
    action: () => Promise<unknown>,
    done: string,
  ): Promise<{ ok: boolean; errors?: Record<string, string> }> => {
    let outcome: { ok: boolean; errors?: Record<string, string> };
    try {
      await action();
      notify(done, { type: 'info' });
      outcome = { ok: true };
    } catch (failure) {
      notify((failure as Error).message, { type: 'error', autoHideDuration: 10_000 });
      outcome = { ok: false, errors: fieldErrors(failure) };
    }
    await Promise.all(
      resources.map((resource) => queryClient.invalidateQueries({ queryKey: [resource] })),
    );
    return outcome;
  };
}

/**
 * Runs a write for a screen that reads the API through react-query (not react-admin's lists): says
 * `done` when it worked, the API's errorMessage when not, then refreshes the queries under
 * `queryKey`. Resolves to whether it worked.
 */
export function useQueryAction(queryKey: readonly unknown[]) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  return async (action: () => Promise<unknown>, done: string): Promise<boolean> => {
    let ok = true;
    try {
      await action();
      notify(done, { type: 'info' });
    } catch (failure) {
      ok = false;
      notify((failure as Error).message, { type: 'error' });
    }
    await queryClient.invalidateQueries({ queryKey });
    return ok;
  };
}

/**
 * A react-admin form in a dialog (full screen on a phone). `onSubmit` answers whether it worked and
 * the API's field errors, which the form then shows beside the fields.
 */
export function FormDialog({
  resource,
  title,
  maxWidth = 'sm',
  record,
  onSubmit,
  onClose,
  children,
}: {
  /** The API resource the form edits (react-admin's inputs want to know it). */
  resource: string;
  title: string;
  maxWidth?: 'sm' | 'md';
  record?: Partial<RaRecord>;
  onSubmit: (values: Record<string, unknown>) => Promise<{ ok: boolean; errors?: object }>;
  onClose: () => void;
  children: ReactNode;
}) {
  const phone = usePhone();
  const titleId = `dialog-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <ResourceContextProvider value={resource}>
      <Dialog
        open
        onClose={onClose}
        fullScreen={phone}
        fullWidth
        maxWidth={maxWidth}
        aria-labelledby={titleId}
      >
        <Form
          record={record}
          onSubmit={async (values: Record<string, unknown>) => {
            const outcome = await onSubmit(values);
            if (outcome.ok) onClose();
            return outcome.errors;
          }}
        >
          <DialogTitle id={titleId}>{title}</DialogTitle>
          <DialogContent>{children}</DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <SaveButton label="Save" alwaysEnable />
          </DialogActions>
        </Form>
      </Dialog>
    </ResourceContextProvider>
  );
}

/** Drops empty strings and nulls the API would refuse on optional fields. */
export function withoutBlanks<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== '' && v !== null && v !== undefined),
  ) as Partial<T>;
}

/**
 * A list row's Edit and Delete buttons, named for the record ("Edit group Buyers"); `children` are
 * buttons of the row's own that go first (the row then wraps when narrow).
 */
export function RowActions({
  label,
  onEdit,
  onDelete,
  children,
}: {
  label: string;
  onEdit: () => void;
  onDelete: () => void;
  children?: ReactNode;
}) {
  return (
    <Stack
      direction="row"
      spacing={0.5}
      sx={{ justifyContent: 'flex-end', ...(children ? { flexWrap: 'wrap' } : {}) }}
    >
      {children}
      <Button size="small" aria-label={`Edit ${label}`} onClick={onEdit}>
        Edit
      </Button>
      <Button size="small" color="error" aria-label={`Delete ${label}`} onClick={onDelete}>
        Delete
      </Button>
    </Stack>
  );
}
