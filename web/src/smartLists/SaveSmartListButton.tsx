import { useState } from 'react';
import { Button, useListContext, useNotify } from 'react-admin';
import BookmarkAddIcon from '@mui/icons-material/BookmarkAdd';
import { apiFetch } from '../api/http';
import { withoutBlanks } from '../admin/kit';
import { SmartListDialog, type SmartListDraft } from './SmartListDialog';
import type { SmartList, SmartListFilters } from '../api/types';

/**
 * "Save as smart list" in the People list's toolbar: a new list with the filters on screen. When
 * a smart list is one of them, its saved filters come first and the others narrow them, as the
 * People list applies them.
 */
export function SaveSmartListButton() {
  const { filterValues } = useListContext();
  const notify = useNotify();
  const [draft, setDraft] = useState<SmartListDraft | null>(null);

  async function start() {
    const { smartListId, ...shown } = withoutBlanks(filterValues ?? {}) as SmartListFilters & {
      smartListId?: number;
    };
    let filters: SmartListFilters = shown;
    if (smartListId) {
      try {
        const { json } = await apiFetch(`/v1/smartLists/${smartListId}`);
        filters = { ...(json as SmartList).filters, ...shown };
      } catch (failure) {
        notify((failure as Error).message, { type: 'error' });
        return;
      }
    }
    setDraft({ name: '', filters, isShared: false });
  }

  return (
    <>
      <Button label="Save as smart list" onClick={() => void start()}>
        <BookmarkAddIcon />
      </Button>
      {draft ? <SmartListDialog list={draft} onClose={() => setDraft(null)} /> : null}
    </>
  );
}
