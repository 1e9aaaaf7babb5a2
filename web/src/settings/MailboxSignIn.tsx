import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { apiFetch } from '../api/http';
import type { GetAnswer } from '../api/types';

type Providers = GetAnswer<'/v1/mailboxes/oauth'>;
type Provider = Providers['providers'][number];
type Start = GetAnswer<'/v1/mailboxes/oauth/{provider}/start'>;

const NAMES: Record<Provider, string> = { google: 'Google', microsoft: 'Microsoft' };

/**
 * What the provider's redirect back to /settings says (`?mailbox=` or `?mailboxError=`): told
 * once, then taken out of the address so a reload does not tell it again.
 */
function useSignInOutcome(): string | null {
  const notify = useNotify();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const failed = params.get('mailboxError');
    if (!params.has('mailbox') && failed === null) return;
    if (failed !== null) setError(failed);
    else notify('Mailbox connected: reading your recent mail', { type: 'success' });
    params.delete('mailbox');
    params.delete('mailboxError');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  }, [notify]);
  return error;
}

/**
 * Sign in with Google or Microsoft, for the providers the server has a client for (offered while
 * no mailbox is connected); says how a sign-in that came back ended.
 */
export function MailboxSignIn({ offer }: { offer: boolean }) {
  const outcome = useSignInOutcome();
  const [error, setError] = useState<string | null>(null);
  const providers = useQuery({
    queryKey: ['mailboxes', 'oauth'],
    queryFn: async () => ((await apiFetch('/v1/mailboxes/oauth')).json as Providers).providers,
    enabled: offer,
  });
  const start = async (provider: Provider) => {
    setError(null);
    try {
      const { json } = await apiFetch(`/v1/mailboxes/oauth/${provider}/start`);
      window.location.assign((json as Start).authorizeUrl);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const shown = error ?? outcome;
  const list = offer ? (providers.data ?? []) : [];
  return (
    <Stack spacing={1} sx={{ mb: list.length ? 2 : 0 }}>
      {shown ? <Alert severity="error">{shown}</Alert> : null}
      {list.length ? (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            {list.map((provider) => (
              <Button key={provider} variant="outlined" onClick={() => start(provider)}>
                Sign in with {NAMES[provider]}
              </Button>
            ))}
          </Stack>
          <Typography variant="body2" color="text.secondary">
            Or connect any mailbox with its servers and an app password:
          </Typography>
        </>
      ) : null}
    </Stack>
  );
}
