import type { ReactNode } from 'react';
import { Confirm } from 'react-admin';
import { apiFetch } from '../api/http';
import { useApiAction } from './kit';

/**
 * The "Delete …?" question of an admin list (react-admin's Confirm). Delete sends DELETE to `path`,
 * says `done` (or the API's refusal), refreshes what the screen shows of `resources`, then closes.
 */
export function ConfirmDelete({
  title,
  content,
  path,
  done,
  resources,
  onClose,
}: {
  title: string;
  content: ReactNode;
  path: string;
  done: string;
  resources: string[];
  onClose: () => void;
}) {
  const act = useApiAction(resources);
  return (
    <Confirm
      isOpen
      title={title}
      content={content}
      confirm="Delete"
      confirmColor="warning"
      onClose={onClose}
      onConfirm={async () => {
        await act(() => apiFetch(path, { method: 'DELETE' }), done);
        onClose();
      }}
    />
  );
}
