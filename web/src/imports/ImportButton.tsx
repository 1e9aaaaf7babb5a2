import { Button } from 'react-admin';
import { Link } from 'react-router-dom';
import UploadIcon from '@mui/icons-material/Upload';

export function ImportButton() {
  return (
    <Button label="Import" component={Link} to="/import">
      <UploadIcon />
    </Button>
  );
}
