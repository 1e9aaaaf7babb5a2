import type { DataProvider, GetListParams, RaRecord } from 'react-admin';

// react-admin's methods are generic in the record type; the API's JSON is what it is.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ApiRecord = any;
import { apiFetch } from './http';
import type { ListEnvelope } from './types';

type Envelope = ListEnvelope;

/** Extra query arguments of single-record reads (a person's custom fields ride only with allFields). */
const READ_QUERY: Record<string, Record<string, string>> = { people: { fields: 'allFields' } };

/** Fields the API computes or owns: never sent back on update. */
const READ_ONLY = new Set(['id', 'created', 'updated', 'createdVia', 'lastActivity']);

function queryString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function recordsOf(envelope: Envelope): ApiRecord[] {
  const key = envelope._metadata?.collection;
  const list = key && Array.isArray(envelope[key]) ? envelope[key] : undefined;
  if (list) return list as ApiRecord[];
  const firstArray = Object.entries(envelope).find(
    ([k, v]) => k !== '_metadata' && Array.isArray(v),
  );
  return (firstArray?.[1] ?? []) as ApiRecord[];
}

/**
 * Cursor paging: the API pages by `_metadata.next`. react-admin asks for page numbers, so the
 * address of page n+1 (the API's nextLink) is remembered per listing (resource, filters, sort,
 * page size). A page reached without it (a bookmarked page 4) falls back to `offset`.
 */
const nextPageAddress = new Map<string, string>();

function listingKey(resource: string, params: GetListParams): string {
  const { filter, sort, pagination } = params;
  return JSON.stringify([resource, filter, sort, pagination?.perPage]);
}

function firstPageQuery(resource: string, params: GetListParams): Record<string, unknown> {
  const { filter = {}, sort, pagination } = params;
  const query: Record<string, unknown> = { ...filter };
  query.limit = pagination?.perPage ?? 25;
  if (sort?.field && !(sort.field === 'id' && sort.order === 'DESC')) {
    query.sort = sort.order === 'DESC' ? `-${sort.field}` : sort.field;
  }
  return query;
}

function relativeAddress(link: string): string {
  const url = new URL(link, window.location.origin);
  return `${url.pathname}${url.search}`;
}

function changedFields(data: RaRecord, previous: RaRecord | undefined): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (READ_ONLY.has(key)) continue;
    if (previous && JSON.stringify(previous[key]) === JSON.stringify(value)) continue;
    changes[key] = value;
  }
  return changes;
}

async function getList(resource: string, params: GetListParams) {
  const key = listingKey(resource, params);
  const page = params.pagination?.page ?? 1;
  const remembered = page > 1 ? nextPageAddress.get(`${key}#${page}`) : undefined;
  const query = firstPageQuery(resource, params);
  if (page > 1 && !remembered) query.offset = (page - 1) * Number(query.limit);
  const address = remembered ?? `/v1/${resource}${queryString(query)}`;
  const { json } = await apiFetch(address, { method: 'GET' });
  const envelope = json as Envelope;
  const { total, nextLink } = envelope._metadata;
  if (nextLink) nextPageAddress.set(`${key}#${page + 1}`, relativeAddress(nextLink));
  return {
    data: recordsOf(envelope),
    total,
    pageInfo: { hasNextPage: Boolean(nextLink), hasPreviousPage: page > 1 },
  };
}

/** react-admin's data access over the public /v1 API, exactly as an integration would use it. */
export const dataProvider: DataProvider = {
  getList,
  async getOne(resource, params) {
    const { json } = await apiFetch(
      `/v1/${resource}/${params.id}${queryString(READ_QUERY[resource] ?? {})}`,
    );
    return { data: json as ApiRecord };
  },
  async getMany(resource, params) {
    if (params.ids.length === 0) return { data: [] };
    const { json } = await apiFetch(
      `/v1/${resource}${queryString({ id: params.ids, limit: 100 })}`,
    );
    return { data: recordsOf(json as Envelope) };
  },
  async getManyReference(resource, params) {
    return getList(resource, {
      ...params,
      filter: { ...params.filter, [params.target]: params.id },
    });
  },
  async create(resource, params) {
    const { json } = await apiFetch(`/v1/${resource}`, { method: 'POST', body: params.data });
    return { data: json as ApiRecord };
  },
  async update(resource, params) {
    const body = changedFields(params.data as RaRecord, params.previousData as RaRecord);
    const { json } = await apiFetch(`/v1/${resource}/${params.id}`, { method: 'PUT', body });
    return { data: (json as ApiRecord) ?? { ...params.previousData, ...body } };
  },
  async updateMany(resource, params) {
    await Promise.all(
      params.ids.map((id) =>
        apiFetch(`/v1/${resource}/${id}`, { method: 'PUT', body: params.data }),
      ),
    );
    return { data: params.ids };
  },
  async delete(resource, params) {
    await apiFetch(`/v1/${resource}/${params.id}`, { method: 'DELETE' });
    return { data: params.previousData as ApiRecord };
  },
  async deleteMany(resource, params) {
    await Promise.all(
      params.ids.map((id) => apiFetch(`/v1/${resource}/${id}`, { method: 'DELETE' })),
    );
    return { data: params.ids };
  },
};
