import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
  unique,
} from '../support/server.js';
import { outboxEventsNamed } from '../support/outbox.js';

const ids = (list: { id: number }[]) => list.map((p) => p.id).sort((a, b) => a - b);

describe('ponds and teams: records, and who sees which people', () => {
  let server: TestServer;
  let account: TestAccount;
  let lead: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let leader: TestUser;
  let teammate: TestUser;
  let pondId: number;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    lead = await account.addUser('Agent');
    member = await account.addUser('Agent');
    outsider = await account.addUser('Agent');
    leader = await account.addUser('Agent');
    teammate = await account.addUser('Agent');
    const pond = await server.post(account.owner.key, '/v1/ponds', {
      name: 'Open leads',
      userId: lead.id,
      userIds: [member.id],
    });
    assert.equal(pond.status, 201, pond.text);
    pondId = pond.body.id;
  });
  after(async () => server.close());

  const person = async (body: Record<string, unknown>) => {
    const res = await server.post(account.owner.key, '/v1/people', body);
    assert.equal(res.status, 201, res.text);
    return res.body as { id: number; assignedUserId: number | null; assignedPondId: number | null };
  };
  const peopleUpdated = async (personId: number) =>
    (await outboxEventsNamed(server, account.accountId, 'peopleUpdated')).filter((e) =>
      e.resourceIds.includes(personId),
    ).length;

  it('manages ponds: Owner/Admin write, everyone reads, lists replace, bad users are 400', async () => {
    const got = await server.get(member.key, `/v1/ponds/${pondId}`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(
      { name: got.body.name, userId: got.body.userId, userIds: got.body.userIds },
      { name: 'Open leads', userId: lead.id, userIds: [member.id] },
    );
    const list = await server.get(member.key, '/v1/ponds');
    assert.equal(list.body._metadata.collection, 'ponds');
    assert.ok(ids(list.body.ponds).includes(pondId));
    assert.equal((await server.post(member.key, '/v1/ponds', { name: 'Mine' })).status, 403);
    assert.equal((await server.put(member.key, `/v1/ponds/${pondId}`, { name: 'x' })).status, 403);
    const other = await server.newAccount();
    const stranger = await other.addUser('Agent');
    const bad = await server.post(account.owner.key, '/v1/ponds', {
      name: 'Bad',
      userIds: [stranger.id],
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /userIds/);
    const scratch = await server.post(account.owner.key, '/v1/ponds', {
      name: 'Scratch',
      userIds: [member.id, outsider.id],
    });
    const replaced = await server.put(account.owner.key, `/v1/ponds/${scratch.body.id}`, {
      userIds: [outsider.id],
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(replaced.body.userIds, [outsider.id]);
    assert.equal(replaced.body.name, 'Scratch');
    assert.equal((await server.get(account.owner.key, '/v1/ponds/999999')).status, 404);
  });

  it('moving a person into a pond unassigns the agent, fires peopleUpdated, and shows them to members only', async () => {
    const p = await person({ firstName: 'Pooled', assignedUserId: outsider.id });
    const before = await peopleUpdated(p.id);
    const moved = await server.put(account.owner.key, `/v1/people/${p.id}`, {
      assignedPondId: pondId,
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.assignedPondId, pondId);
    assert.equal(moved.body.assignedUserId, null);
    assert.equal(await peopleUpdated(p.id), before + 1);

    const note = await server.post(account.owner.key, '/v1/notes', {
      personId: p.id,
      body: 'Pond note',
    });
    assert.equal(note.status, 201, note.text);
    for (const user of [member, lead]) {
      assert.equal((await server.get(user.key, `/v1/people/${p.id}`)).status, 200);
      const listed = await server.get(user.key, `/v1/people?assignedPondId=${pondId}`);
      assert.deepEqual(ids(listed.body.people), [p.id]);
      const notes = await server.get(user.key, `/v1/notes?personId=${p.id}`);
      assert.deepEqual(ids(notes.body.notes), [note.body.id]);
    }
    // The agent it was taken from, and any other Agent, see nothing of it any more.
    assert.equal((await server.get(outsider.key, `/v1/people/${p.id}`)).status, 404);
    assert.deepEqual(ids((await server.get(outsider.key, '/v1/people')).body.people), []);
    assert.deepEqual(
      ids((await server.get(outsider.key, `/v1/notes?personId=${p.id}`)).body.notes ?? []),
      [],
    );
    // The owner's filter finds exactly the pond's people.
    const filtered = await server.get(account.owner.key, `/v1/people?assignedPondId=${pondId}`);
    assert.deepEqual(ids(filtered.body.people), [p.id]);
  });

  it('an Agent moves people only into ponds they belong to; a pond and an agent together are 400', async () => {
    const p = await person({ firstName: 'Agents own', assignedUserId: outsider.id });
    const refused = await server.put(outsider.key, `/v1/people/${p.id}`, {
      assignedPondId: pondId,
    });
    assert.equal(refused.status, 403);
    assert.equal((await server.get(outsider.key, `/v1/people/${p.id}`)).body.assignedPondId, null);
    const mine = await person({ firstName: 'Members own', assignedUserId: member.id });
    const ok = await server.put(member.key, `/v1/people/${mine.id}`, { assignedPondId: pondId });
    assert.equal(ok.status, 200, ok.text);
    const both = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Both',
      assignedPondId: pondId,
      assignedUserId: member.id,
    });
    assert.equal(both.status, 400);
    const unknown = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Nowhere',
      assignedPondId: 999999,
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errorMessage, /assignedPondId/);
    // Created by a member straight into the pond: not assigned to them.
    const created = await server.post(member.key, '/v1/people', {
      firstName: 'Straight in',
      assignedPondId: pondId,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.assignedUserId, null);
    // Assigning an agent takes the person out of the pond.
    const claimed = await server.put(account.owner.key, `/v1/people/${created.body.id}`, {
      assignedUserId: member.id,
    });
    assert.equal(claimed.body.assignedPondId, null);
  });

  it("the pond's lead agent gets the notification of a returning lead in the pond", async () => {
    const address = `${unique('pond')}@example.com`;
    const p = await person({ firstName: 'Returning', emails: [address], assignedPondId: pondId });
    const event = await server.post(account.owner.key, '/v1/events', {
      type: 'Viewed Property',
      source: 'pond.example',
      person: { emails: [address] },
    });
    assert.ok(event.status === 200 || event.status === 201, event.text);
    const mine = await server.get(lead.key, '/v1/notifications');
    assert.ok(
      mine.body.notifications.some(
        (n: { personId: number; type: string }) =>
          n.personId === p.id && n.type === 'returningLead',
      ),
      JSON.stringify(mine.body.notifications),
    );
  });

  it("team leaders see their members' people (assigned or collaborated), Agents still nothing else", async () => {
    const team = await server.post(account.owner.key, '/v1/teams', {
      name: 'North',
      userIds: [teammate.id],
      leaderIds: [leader.id],
    });
    assert.equal(team.status, 201, team.text);
    assert.deepEqual(
      { userIds: team.body.userIds, leaderIds: team.body.leaderIds },
      { userIds: [teammate.id], leaderIds: [leader.id] },
    );
    const assigned = await person({ firstName: 'Teammates', assignedUserId: teammate.id });
    const collab = await person({ firstName: 'Helped', collaborators: [teammate.id] });
    const elsewhere = await person({ firstName: 'Elsewhere', assignedUserId: outsider.id });
    const seen = await server.get(leader.key, '/v1/people');
    assert.deepEqual(ids(seen.body.people), [assigned.id, collab.id]);
    assert.equal((await server.get(leader.key, `/v1/people/${elsewhere.id}`)).status, 404);
    // The teammate sees only their own; leading is not symmetric.
    assert.deepEqual(ids((await server.get(teammate.key, '/v1/people')).body.people), [
      assigned.id,
      collab.id,
    ]);
    const me = await server.get(leader.key, `/v1/users/${leader.id}`);
    assert.deepEqual(me.body.teamLeaderOf, [team.body.id]);
    assert.deepEqual((await server.get(teammate.key, '/v1/me')).body.teamLeaderOf, []);
    assert.equal((await server.post(leader.key, '/v1/teams', { name: 'Mine' })).status, 403);
    // Removed as leader: the members' people disappear again.
    await server.put(account.owner.key, `/v1/teams/${team.body.id}`, { leaderIds: [] });
    assert.deepEqual(ids((await server.get(leader.key, '/v1/people')).body.people), []);
  });

  it('deleting a team can move its lists to another; deleting a pond hands its people to assignTo', async () => {
    const a = await server.post(account.owner.key, '/v1/teams', {
      name: 'A',
      userIds: [teammate.id],
      leaderIds: [leader.id],
    });
    const b = await server.post(account.owner.key, '/v1/teams', {
      name: 'B',
      userIds: [member.id],
    });
    const gone = await server.del(
      account.owner.key,
      `/v1/teams/${a.body.id}?moveToTeamId=${b.body.id}`,
    );
    assert.equal(gone.status, 204, gone.text);
    const merged = await server.get(account.owner.key, `/v1/teams/${b.body.id}`);
    assert.deepEqual(
      merged.body.userIds,
      [member.id, teammate.id].sort((x, y) => x - y),
    );
    assert.deepEqual(merged.body.leaderIds, [leader.id]);
    assert.equal((await server.get(account.owner.key, `/v1/teams/${a.body.id}`)).status, 404);

    const pond = await server.post(account.owner.key, '/v1/ponds', { name: 'Closing down' });
    const p = await person({ firstName: 'Handed', assignedPondId: pond.body.id });
    const noTarget = await server.del(account.owner.key, `/v1/ponds/${pond.body.id}`);
    assert.equal(noTarget.status, 400);
    const before = await peopleUpdated(p.id);
    const deleted = await server.del(
      account.owner.key,
      `/v1/ponds/${pond.body.id}?assignTo=${outsider.id}`,
    );
    assert.equal(deleted.status, 204, deleted.text);
    const after = await server.get(account.owner.key, `/v1/people/${p.id}`);
    assert.equal(after.body.assignedUserId, outsider.id);
    assert.equal(after.body.assignedPondId, null);
    assert.equal(await peopleUpdated(p.id), before + 1);
  });

  it('never shows or touches another account’s ponds and teams', async () => {
    const other = await server.newAccount();
    const theirs = await server.post(other.owner.key, '/v1/ponds', { name: 'Theirs' });
    const theirTeam = await server.post(other.owner.key, '/v1/teams', { name: 'Theirs' });
    const key = account.owner.key;
    assert.ok(!ids((await server.get(key, '/v1/ponds')).body.ponds).includes(theirs.body.id));
    assert.ok(!ids((await server.get(key, '/v1/teams')).body.teams).includes(theirTeam.body.id));
    for (const path of [`/v1/ponds/${theirs.body.id}`, `/v1/teams/${theirTeam.body.id}`]) {
      assert.equal((await server.get(key, path)).status, 404);
      assert.equal((await server.put(key, path, { name: 'Mine now' })).status, 404);
    }
    assert.equal(
      (await server.del(key, `/v1/ponds/${theirs.body.id}?assignTo=${account.owner.id}`)).status,
      404,
    );
    assert.equal((await server.del(key, `/v1/teams/${theirTeam.body.id}`)).status, 404);
    // Their pond cannot take our people, ours cannot take theirs, nor list our users.
    const ours = await person({ firstName: 'Ours' });
    assert.equal(
      (await server.put(key, `/v1/people/${ours.id}`, { assignedPondId: theirs.body.id })).status,
      400,
    );
    assert.equal(
      (
        await server.post(other.owner.key, '/v1/people', {
          firstName: 'Theirs',
          assignedPondId: pondId,
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await server.put(other.owner.key, `/v1/teams/${theirTeam.body.id}`, {
          leaderIds: [lead.id],
        })
      ).status,
      400,
    );
    assert.equal((await server.get(other.owner.key, `/v1/ponds/${pondId}`)).status, 404);
    assert.equal((await server.get(key, `/v1/ponds/${theirs.body.id}`)).status, 404);
  });
});
