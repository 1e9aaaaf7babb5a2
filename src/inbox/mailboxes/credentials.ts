import type { Config } from '../../platform/config.js';
import {
  decryptSystemKey,
  encryptSystemKey,
  serverSecret,
} from '../../accounts/webhooks/signing.js';

/** What signs in to a mailbox's servers: app passwords, or an OAuth grant (XOAUTH2). */
export type MailCredentials =
  | { kind: 'password'; imapPassword: string; smtpPassword: string }
  | {
      kind: 'oauth';
      provider: 'google' | 'microsoft';
      accessToken: string;
      refreshToken: string | null;
      /** ms since the epoch */
      expiresAt: number;
    };

/** AES-256-GCM with the server secret, as webhook signing keys are kept (accounts/webhooks). */
export function sealCredentials(config: Config, credentials: MailCredentials): string {
  return encryptSystemKey(serverSecret(config), JSON.stringify(credentials));
}

export function openCredentials(config: Config, sealed: string): MailCredentials {
  return JSON.parse(decryptSystemKey(serverSecret(config), sealed)) as MailCredentials;
}
