import { attachmentRoutes } from '../contacts/attachments/attachments.routes.js';
import { Gate } from '../access/gates.js';
import { findVisibleDeal, visibleDealIds } from './deals.repo.js';

/** `/v1/dealAttachments`: files kept elsewhere, visible like their deal; Lenders only read. */
export const dealAttachmentsRoutes = attachmentRoutes({
  path: '/v1/dealAttachments',
  collection: 'dealAttachments',
  noun: 'Deal attachment',
  table: 'deal_attachments',
  parentKey: 'dealId',
  parentColumn: 'deal_id',
  parentNoun: 'deal',
  visibleParents: (db, auth) => visibleDealIds(db, auth),
  findParent: async (db, auth, id) => (await findVisibleDeal(db, auth, id))?.id,
  writeGate: Gate.dealWriter,
  httpsOnly: false,
  requireRegisteredSystem: false,
});
