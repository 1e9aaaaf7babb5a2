import { Button, useListContext } from 'react-admin';
import DownloadIcon from '@mui/icons-material/Download';

/** Filters of the People list that GET /v1/people/export takes as they are. */
const EXPORTED = ['q', 'stageId', 'tags', 'assignedUserId', 'source', 'smartListId'];

/** Downloads the people of the current search as CSV (the server streams it; the cookie signs in). */
export function ExportButton() {
  const { filterValues } = useListContext();
  const query = new URLSearchParams();
  for (const key of EXPORTED) {
    const value = filterValues?.[key];
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const href = `/v1/people/export${query.size ? `?${query}` : ''}`;
  return (
    <Button label="Export" component="a" href={href} download>
      <DownloadIcon />
    </Button>
  );
}
