import { customFieldRoutes } from '../contacts/customFields/customFields.routes.js';
import './deals.tables.js';

/** `/v1/dealCustomFields`: the same definitions and rules as people's custom fields; values live in deals.custom. */
export const dealCustomFieldRoutes = customFieldRoutes({
  path: '/v1/dealCustomFields',
  entity: 'deal',
  collection: 'dealCustomfields',
  valuesTable: 'deals',
  events: {
    created: 'dealCustomFieldsCreated',
    updated: 'dealCustomFieldsUpdated',
    deleted: 'dealCustomFieldsDeleted',
  },
  tag: 'dealCustomFields',
});
