import { apiFetch } from '../api/http';
import { fetchAll, fetchPage } from '../api/lists';
import type {
  CampaignSendProgress,
  EmCampaign,
  EmStats,
  Person,
  SendPreview,
  Template as FullTemplate,
} from '../api/types';

export type SendProgress = CampaignSendProgress;

export type Campaign = EmCampaign;

export type Stats = EmStats;

export type Template = Pick<FullTemplate, 'id' | 'name' | 'subject' | 'body'>;

export type PersonOption = Pick<Person, 'id' | 'name' | 'emails'>;

export const campaignKey = (id: number) => ['campaign', id];

export async function listCampaigns(address = '/v1/emCampaigns?limit=50&sort=-updated') {
  return fetchPage<Campaign>(address);
}

export async function getCampaign(id: number, mergePersonId?: number): Promise<Campaign> {
  const query = mergePersonId ? `?mergePersonId=${mergePersonId}` : '';
  return (await apiFetch(`/v1/emCampaigns/${id}${query}`)).json as Campaign;
}

export async function getStats(id: number): Promise<Stats> {
  return ((await apiFetch(`/v1/emCampaigns/${id}/stats`)).json as { stats: Stats }).stats;
}

export async function createCampaign(body: {
  name: string;
  subject: string;
  bodyHtml: string;
}): Promise<Campaign> {
  const originId = `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const { json } = await apiFetch('/v1/emCampaigns', {
    method: 'POST',
    body: { origin: 'Hearth', originId, ...body },
  });
  return json as Campaign;
}

export async function saveCampaign(id: number, body: { subject: string; bodyHtml: string }) {
  return (await apiFetch(`/v1/emCampaigns/${id}`, { method: 'PUT', body })).json as Campaign;
}

export async function sendCampaign(
  id: number,
  body: { smartListId?: number; personIds?: number[]; sendAt?: string },
): Promise<SendProgress> {
  return (await apiFetch(`/v1/emCampaigns/${id}/send`, { method: 'POST', body }))
    .json as SendProgress;
}

export async function cancelSend(id: number): Promise<SendProgress> {
  return (await apiFetch(`/v1/emCampaigns/${id}/send/cancel`, { method: 'POST' }))
    .json as SendProgress;
}

export const listTemplates = () => fetchAll<Template>('/v1/templates?limit=100&sort=name', 500);

export const listSmartLists = () =>
  fetchAll<{ id: number; name: string }>('/v1/smartLists?limit=100', 500);

export async function searchPeople(text: string): Promise<PersonOption[]> {
  const query = new URLSearchParams({ limit: '10', fields: 'name,emails' });
  if (text.trim()) query.set('q', text.trim());
  return (await fetchPage<PersonOption>(`/v1/people?${query}`)).items;
}

/** A fraction as a percentage ("—" when there is nothing to divide by). */
export const percent = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? '—' : `${Math.round(rate * 1000) / 10}%`;

export const isActive = (send?: SendProgress) =>
  send?.status === 'sending' || send?.status === 'scheduled';

/** How many people a send with this body would go to now, and the sender they would see. */
export async function previewSend(
  id: number,
  body: { smartListId?: number; personIds?: number[] },
): Promise<SendPreview> {
  return (await apiFetch(`/v1/emCampaigns/${id}/send/preview`, { method: 'POST', body }))
    .json as SendPreview;
}

/** The campaign as it is now, to the signed-in user's own address. */
export async function sendTest(
  id: number,
  mergePersonId?: number,
): Promise<{ to: string; from: string; subject: string }> {
  const body = mergePersonId ? { mergePersonId } : {};
  return (await apiFetch(`/v1/emCampaigns/${id}/sendTest`, { method: 'POST', body })).json as {
    to: string;
    from: string;
    subject: string;
  };
}
