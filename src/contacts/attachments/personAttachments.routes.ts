import { attachmentRoutes } from './attachments.routes.js';
import { visiblePersonId, visiblePersonIds } from '../../access/visibility.js';
import './attachments.tables.js';

/**
 * `/v1/personAttachments`: files hosted elsewhere (an https `uri`, never fetched), visible like
 * their person; as in the real API only a registered system (X-System + X-System-Key) writes them.
 */
export const personAttachmentsRoutes = attachmentRoutes({
  path: '/v1/personAttachments',
  collection: 'personAttachments',
  noun: 'Person attachment',
  table: 'person_attachments',
  parentKey: 'personId',
  parentColumn: 'person_id',
  parentNoun: 'person',
  visibleParents: (db, auth) => visiblePersonIds(db, auth),
  findParent: visiblePersonId,
  httpsOnly: true,
  requireRegisteredSystem: true,
});
