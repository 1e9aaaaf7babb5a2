import type { EmailConfig } from '../../platform/config.js';

export interface Sender {
  from: { name: string; address: string };
  envelopeFrom: string;
}

/**
 * Who a campaign email comes from: the sending user's name and address, or "Hearth" at
 * HEARTH_EMAIL_FROM when the user has no address; bounces go to HEARTH_EMAIL_FROM when set.
 * Null when there is no address at all.
 */
export function senderOf(
  user: { name: string; email: string } | undefined,
  conf: Pick<EmailConfig, 'from'>,
): Sender | null {
  const address = user?.email || conf.from;
  if (!address) return null;
  return {
    from: { name: user?.email ? user.name : 'Hearth', address },
    envelopeFrom: conf.from ?? address,
  };
}

/** "Ava Stone <ava@example.com>", as a mail program shows the sender. */
export const senderLine = (sender: Sender) =>
  sender.from.name ? `${sender.from.name} <${sender.from.address}>` : sender.from.address;
