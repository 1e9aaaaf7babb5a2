import { Type } from '@sinclair/typebox';
import { EventBody } from '../../leads/events/events.schemas.js';
import { Person } from '../../contacts/people/people.schemas.js';
import { Deal, DealListQuery } from '../../deals/deals.schemas.js';
import { SmartList } from '../../contacts/smartLists/smartLists.schemas.js';
import { listRequest } from '../../platform/http/pagination.js';
import { sendLeadEvent as recordLead } from '../../leads/events/events.answers.js';
import { changeDeal, listDeals as dealsPage } from '../../deals/deals.answers.js';
import { listSmartLists as smartListsPage } from '../../contacts/smartLists/smartLists.answers.js';
import {
  adding,
  asObject,
  defineTool,
  objectOf,
  overwriting,
  pageArgs,
  pageFields,
  pageOf,
  pageQuery,
  PersonId,
  reading,
} from './tool.js';
import { Confirm } from './safety.js';

interface DealOut {
  id: number;
  name: string;
  stageName: string | null;
  price: number | null;
}

const describeDeal = (d: DealOut) =>
  `"${d.name}" (deal ${d.id}${d.stageName ? `, ${d.stageName}` : ''}${d.price !== null ? `, ${d.price}` : ''})`;

export const sendLeadEvent = defineTool({
  name: 'send_lead_event',
  title: 'Send a lead event',
  description:
    'Record a lead or lead activity (type e.g. Registration, Inquiry, Property Inquiry, Seller Inquiry, Showing Request) with the person and property: the person is matched or created, routed and notified as for any lead source.',
  input: Type.Omit(EventBody, ['system']),
  output: objectOf({
    outcome: Type.Union([
      Type.Literal('created'),
      Type.Literal('updated'),
      Type.Literal('archived'),
    ]),
    person: Type.Union([Person, Type.Null()]),
  }),
  annotations: adding,
  route: { method: 'POST', url: '/v1/events' },
  async run({ ctx, auth }, args) {
    const answer = await recordLead(ctx, auth, args, null);
    if (answer.status === 204)
      return {
        text: 'The lead flow of this source archives its leads: nothing was created',
        structured: { outcome: 'archived', person: null },
      };
    // A person the caller may not see is answered with their id only.
    const person =
      'document' in answer
        ? asObject<{ id: number; name?: string }>(answer.document)
        : { id: answer.personId };
    const outcome = answer.status === 201 ? 'created' : 'updated';
    return {
      text: `Lead recorded on person ${person.id}${person.name ? ` (${person.name})` : ''}`,
      structured: { outcome, person },
    };
  },
});

export const listDeals = defineTool({
  name: 'list_deals',
  title: 'List deals',
  description: 'Deals you can see, optionally of one pipeline, stage or person.',
  input: objectOf({
    ...Type.Pick(DealListQuery, ['pipelineId', 'stageId', 'status']).properties,
    personId: Type.Optional(PersonId),
    ...pageArgs,
  }),
  output: objectOf({ deals: Type.Array(Deal), ...pageFields }),
  annotations: reading,
  route: { method: 'GET', url: '/v1/deals' },
  async run({ ctx, auth }, args) {
    const { limit: _limit, cursor: _cursor, ...filters } = args;
    const query = { ...filters, ...pageQuery(args) };
    const page = await dealsPage(ctx, auth, listRequest('/v1/deals', query), query);
    const shown = page.deals.map(describeDeal).join('; ');
    return {
      text: `${page._metadata.total} deals${shown ? `: ${shown}` : ''}`,
      structured: { deals: page.deals, ...pageOf(page._metadata) },
    };
  },
});

export const moveDeal = defineTool({
  name: 'move_deal',
  title: 'Move a deal',
  description:
    "Move a deal to another stage of its pipeline (stage ids: the pipeline's stages). Needs confirm: true once the user agreed.",
  input: objectOf({
    dealId: Type.Integer({ minimum: 1, description: 'See list_deals' }),
    stageId: Type.Integer({ minimum: 1, description: 'The stage to move it to' }),
    confirm: Confirm,
  }),
  output: objectOf({ deal: Deal }),
  annotations: overwriting,
  route: { method: 'PUT', url: '/v1/deals/:id' },
  async run({ ctx, auth }, { dealId, stageId }) {
    const deal = await changeDeal(ctx, auth, dealId, { stageId });
    return { text: `Moved ${describeDeal(deal)}`, structured: { deal } };
  },
});

export const listSmartLists = defineTool({
  name: 'list_smart_lists',
  title: 'List smart lists',
  description:
    'The saved people lists (smart lists) you can use; search_people does not take them, the web app and REST API do.',
  input: objectOf({ ...pageArgs }),
  output: objectOf({ smartLists: Type.Array(SmartList), ...pageFields }),
  annotations: reading,
  route: { method: 'GET', url: '/v1/smartLists' },
  async run({ ctx, auth }, args) {
    const query = pageQuery(args);
    const page = await smartListsPage(ctx, auth, listRequest('/v1/smartLists', query), query);
    return {
      text: `${page._metadata.total} smart lists: ${page.smartlists.map((l) => l.name).join('; ')}`,
      structured: { smartLists: page.smartlists, ...pageOf(page._metadata) },
    };
  },
});
