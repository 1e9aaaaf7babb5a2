import { type Env, fail, flagVar, intVar } from './config-vars.js';

/** An OAuth 2.0 provider for mailbox sign-in (XOAUTH2 over IMAP and SMTP). */
export interface MailOAuthProvider {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
}

/** Connected mailboxes (src/mailboxes/). */
export interface MailboxConfig {
  /** HEARTH_MAILBOX_ALLOW_PRIVATE: mail servers on loopback/private addresses allowed. */
  allowPrivate: boolean;
  /** HEARTH_MAILBOX_SYNC_DAYS: how far back the first sync reads. */
  syncDays: number;
  /** HEARTH_MAILBOX_POLL_SECONDS: the longest a new message waits to be filed (IDLE is sooner). */
  pollSeconds: number;
  /** HEARTH_MAILBOX_MAX_MESSAGE_BYTES: how much of one message is read (text parts come first). */
  maxMessageBytes: number;
  /** HEARTH_MAILBOX_CONNECTIONS: mailboxes one worker holds open at once. */
  connections: number;
  /** HEARTH_MAILBOX_TIMEOUT: seconds a mail server has to answer. */
  timeoutSeconds: number;
  google: MailOAuthProvider | null;
  microsoft: MailOAuthProvider | null;
}

const PROVIDERS = {
  GOOGLE: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
  },
  MICROSOFT: {
    authorizeUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
  },
};

function urlVar(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
  } catch {
    fail(name, `must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

/** HEARTH_MAILBOX_<P>_CLIENT_ID and _SECRET, both or neither; the endpoints can be moved. */
function providerVar(env: Env, prefix: keyof typeof PROVIDERS): MailOAuthProvider | null {
  const clientId = env[`HEARTH_MAILBOX_${prefix}_CLIENT_ID`]?.trim();
  const clientSecret = env[`HEARTH_MAILBOX_${prefix}_CLIENT_SECRET`]?.trim();
  if (!clientId && !clientSecret) return null;
  if (!clientId || !clientSecret)
    fail(
      `HEARTH_MAILBOX_${prefix}_CLIENT_ID`,
      `and HEARTH_MAILBOX_${prefix}_CLIENT_SECRET go together`,
    );
  const defaults = PROVIDERS[prefix];
  return {
    clientId,
    clientSecret,
    authorizeUrl: urlVar(env, `HEARTH_MAILBOX_${prefix}_AUTHORIZE_URL`, defaults.authorizeUrl),
    tokenUrl: urlVar(env, `HEARTH_MAILBOX_${prefix}_TOKEN_URL`, defaults.tokenUrl),
  };
}

/** Reads the HEARTH_MAILBOX_ variables (config.ts). */
export function mailboxVar(env: Env): MailboxConfig {
  return {
    allowPrivate: flagVar(env, 'HEARTH_MAILBOX_ALLOW_PRIVATE'),
    syncDays: intVar(env, 'HEARTH_MAILBOX_SYNC_DAYS', 90, 0, 3650),
    pollSeconds: intVar(env, 'HEARTH_MAILBOX_POLL_SECONDS', 30, 1, 3600),
    maxMessageBytes: intVar(
      env,
      'HEARTH_MAILBOX_MAX_MESSAGE_BYTES',
      2 * 1024 * 1024,
      16 * 1024,
      50 * 1024 * 1024,
    ),
    connections: intVar(env, 'HEARTH_MAILBOX_CONNECTIONS', 100, 1, 10_000),
    timeoutSeconds: intVar(env, 'HEARTH_MAILBOX_TIMEOUT', 20, 1, 300),
    google: providerVar(env, 'GOOGLE'),
    microsoft: providerVar(env, 'MICROSOFT'),
  };
}
