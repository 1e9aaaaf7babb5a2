import type { ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';

/**
 * A dialog that asks before a step that cannot be undone: the question as its title (which names
 * the dialog), what follows as its content, then Cancel and a red `confirm` button.
 */
export function ConfirmDialog({
  titleId,
  title,
  confirm,
  disabled,
  onConfirm,
  onClose,
  children,
}: {
  titleId: string;
  title: string;
  confirm: string;
  disabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button color="error" variant="contained" disabled={disabled} onClick={onConfirm}>
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
