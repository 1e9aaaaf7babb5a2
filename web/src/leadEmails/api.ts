import { apiFetch } from '../api/http';
import type { Identity, InboundEmail, InboundEmailDetail } from '../api/types';

export type Suggestion = InboundEmailDetail['suggestion'];

export interface LeadAddresses {
  account: string;
  user: string;
}

export const UNPARSED_KEY = ['leadEmails', 'unparsed'];

export async function unparsedEmails(): Promise<InboundEmail[]> {
  const { json } = await apiFetch('/v1/inboundEmails?status=unparsed&limit=50');
  return (json as { inboundemails: InboundEmail[] }).inboundemails;
}

export async function inboundEmail(id: number): Promise<InboundEmailDetail> {
  return (await apiFetch(`/v1/inboundEmails/${id}`)).json as InboundEmailDetail;
}

export async function leadAddresses(): Promise<LeadAddresses> {
  const { json } = await apiFetch('/v1/identity');
  const identity = json as Identity;
  return { account: identity.account.leadEmailAddress, user: identity.user.leadEmailAddress };
}

export interface LeadForm {
  name: string;
  email: string;
  phone: string;
  address: string;
  source: string;
  message: string;
}

/** Makes the lead (a POST /v1/events body); answers the person's id. */
export async function makeLead(id: number, form: LeadForm): Promise<number> {
  const body = {
    type: 'Inquiry',
    source: form.source.trim() || undefined,
    person: {
      name: form.name.trim() || undefined,
      emails: form.email.trim() ? [{ value: form.email.trim() }] : [],
      phones: form.phone.trim() ? [{ value: form.phone.trim() }] : [],
    },
    property: form.address.trim() ? { street: form.address.trim() } : undefined,
    message: form.message.trim() || undefined,
  };
  const { json } = await apiFetch(`/v1/inboundEmails/${id}/review/lead`, { method: 'POST', body });
  return (json as { id: number }).id;
}

export async function ignoreEmail(id: number): Promise<void> {
  await apiFetch(`/v1/inboundEmails/${id}/review/ignore`, { method: 'POST' });
}

/** A new lead address for the account (Owner, Admin) or the caller; the old one stops at once. */
export async function rotateLeadAddress(scope: 'account' | 'user'): Promise<string> {
  const { json } = await apiFetch('/v1/leadEmailAddresses/rotate', {
    method: 'POST',
    body: { scope },
  });
  return (json as { leadEmailAddress: string }).leadEmailAddress;
}
