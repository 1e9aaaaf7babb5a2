import { userListResourceRoutes } from '../../accounts/users/userListResource.js';
import { userListsOf } from '../../accounts/users/userLists.js';
import { Team, TeamCreateBody, TeamDeleteQuery, TeamUpdateBody } from './teams.schemas.js';
import { findTeam, type TeamRow, teamsOf, presentTeam } from './teams.repo.js';
import { createTeam, deleteTeam, updateTeam } from './teams.service.js';

/** /v1/teams: members and leaders (a leader sees the members' people). Owner and Admin manage. */
export const teamsRoutes = userListResourceRoutes({
  collection: 'teams',
  noun: 'Team',
  schemas: {
    item: Team,
    create: TeamCreateBody,
    update: TeamUpdateBody,
    deleteQuery: TeamDeleteQuery,
  },
  summaries: {
    update: 'Update a team; `userIds` and `leaderIds` replace those lists (Owner, Admin)',
    delete: 'Delete a team; `moveToTeamId` takes over its members and leaders (Owner, Admin)',
  },
  list: teamsOf,
  find: findTeam,
  async present(db, rows: TeamRow[]) {
    const ids = rows.map((r) => r.id);
    const members = await userListsOf(db, 'team_members', ids);
    const leaders = await userListsOf(db, 'team_leaders', ids);
    return rows.map((row) => presentTeam(row, members.get(row.id)!, leaders.get(row.id)!));
  },
  create: createTeam,
  update: updateTeam,
  remove: (trx, accountId, id, query) => deleteTeam(trx, accountId, id, query.moveToTeamId),
});
