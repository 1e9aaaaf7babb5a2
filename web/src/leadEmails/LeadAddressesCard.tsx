import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { useNotify } from 'react-admin';
import { PageHeading } from '../layout/PageHeading';
import { leadAddresses, rotateLeadAddress } from './api';

const ADDRESSES_KEY = ['leadEmails', 'addresses'];

interface AddressProps {
  scope: 'account' | 'user';
  label: string;
  /** how the buttons name it: "your lead address", "the account's lead address" */
  name: string;
  value: string;
  hint: string;
}

function Address({ scope, label, name, value, hint }: AddressProps) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation({
    mutationFn: () => rotateLeadAddress(scope),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY });
      notify('A new address is made; the old one takes no more mail', { type: 'info' });
    },
    onError: (failure) => notify((failure as Error).message, { type: 'error' }),
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify('Address copied', { type: 'info' });
    } catch {
      notify('Could not copy: select the address and copy it by hand', { type: 'warning' });
    }
  };
  return (
    <Box>
      <Typography variant="subtitle2" component="h3">
        {label}
      </Typography>
      <Typography
        sx={{ fontFamily: 'monospace', fontSize: '0.95rem', overflowWrap: 'anywhere', my: 0.5 }}
      >
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {hint}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<ContentCopyIcon />}
          onClick={copy}
          aria-label={`Copy ${name}`}
        >
          Copy
        </Button>
        <Button
          size="small"
          startIcon={<AutorenewIcon />}
          onClick={() => setConfirming(true)}
          aria-label={`Rotate ${name}`}
        >
          Rotate
        </Button>
      </Stack>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        aria-labelledby={`rotate-${scope}`}
      >
        <DialogTitle id={`rotate-${scope}`}>Rotate {name}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            A new address replaces {value}. The old one refuses mail at once: update the portals and
            forwarding rules that send to it.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button
            variant="contained"
            color="warning"
            disabled={rotate.isPending}
            onClick={() => rotate.mutate()}
          >
            Make a new address
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/**
 * The signed-in user's lead address and, for Owners and Admins, the account's (GET
 * /v1/identity), each with Copy and Rotate.
 */
export function LeadAddressesCard({ includeAccount = true }: { includeAccount?: boolean }) {
  const { data, error } = useQuery({ queryKey: ADDRESSES_KEY, queryFn: leadAddresses });
  return (
    <Card variant="outlined" component="section" aria-labelledby="lead-addresses">
      <CardContent>
        <Typography id="lead-addresses" variant="h6" component="h2" gutterBottom>
          Lead addresses
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Portal notifications (Zillow, Realtor.com, your website's forms…) sent or forwarded to
          these addresses become leads.
        </Typography>
        {error && <Alert severity="error">{(error as Error).message}</Alert>}
        {!data && !error && <Skeleton height={80} />}
        {data && (
          <Stack spacing={3}>
            <Address
              scope="user"
              label="Yours"
              name="your lead address"
              value={data.user}
              hint="Leads sent here are assigned to you. Forward your portal mail here."
            />
            {includeAccount && (
              <Address
                scope="account"
                label="Account"
                name="the account's lead address"
                value={data.account}
                hint="Leads sent here follow the lead flow of their source."
              />
            )}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/lead-email: the addresses on a page of the admin area. */
export function LeadAddressesScreen() {
  return (
    <Box sx={{ maxWidth: 880 }}>
      <PageHeading>Lead email addresses</PageHeading>
      <LeadAddressesCard />
    </Box>
  );
}
