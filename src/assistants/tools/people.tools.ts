import { Type } from '@sinclair/typebox';
import { Person, PersonBody } from '../../contacts/people/people.schemas.js';
import { Note } from '../../timeline/notes/notes.schemas.js';
import { Call } from '../../timeline/calls/calls.schemas.js';
import { Task } from '../../timeline/tasks/tasks.schemas.js';
import { LeadEvent } from '../../leads/events/events.schemas.js';
import { listRequest } from '../../platform/http/pagination.js';
import {
  createPersonAnswer,
  listPeople,
  visiblePersonDocument,
  updatePersonAnswer,
} from '../../contacts/people/people.answers.js';
import { listNotes } from '../../timeline/notes/notes.answers.js';
import { listCalls } from '../../timeline/calls/calls.answers.js';
import { listTasks } from '../../timeline/tasks/tasks.answers.js';
import { listPersonEvents } from '../../leads/events/events.answers.js';
import {
  adding,
  asObject,
  defineTool,
  type ListMetadata,
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

type PersonOut = { id: number; name?: string; stage?: string | null };
/** What a search shows of each person: enough to tell them apart and reach them. */
const SUMMARY_FIELDS = 'name,stage,emails,phones,tags,assignedTo,lastActivity';
const RECENT = 5;

const describe = (p: PersonOut) =>
  `${p.name || '(no name)'} (person ${p.id}${p.stage ? `, ${p.stage}` : ''})`;
const PersonInput = Type.Omit(PersonBody, ['system']);

export const searchPeople = defineTool({
  name: 'search_people',
  title: 'Search people',
  description:
    'Find people you can see by name, email or phone (part of it is enough). Returns a page of short records.',
  input: objectOf({
    query: Type.String({ minLength: 1, maxLength: 200, description: 'Name, email or phone' }),
    ...pageArgs,
  }),
  output: objectOf({ people: Type.Array(Person), ...pageFields }),
  annotations: reading,
  route: { method: 'GET', url: '/v1/people' },
  async run({ ctx, auth }, args) {
    const query = { q: args.query, fields: SUMMARY_FIELDS, ...pageQuery(args) };
    const page = asObject<{ _metadata: ListMetadata; people: PersonOut[] }>(
      await listPeople(ctx, auth, listRequest('/v1/people', query), query),
    );
    const shown = page.people.map(describe).join('; ');
    return {
      text: `${page._metadata.total} match "${args.query}"${shown ? `: ${shown}` : ''}`,
      structured: { people: page.people, ...pageOf(page._metadata) },
    };
  },
});

export const getPerson = defineTool({
  name: 'get_person',
  title: 'Get a person',
  description:
    'A person with their recent timeline: the last notes, calls and lead events, and their open tasks.',
  input: objectOf({ personId: PersonId }),
  output: objectOf({
    person: Person,
    recentNotes: Type.Array(Note),
    recentCalls: Type.Array(Call),
    openTasks: Type.Array(Task),
    recentEvents: Type.Array(LeadEvent),
  }),
  annotations: reading,
  route: { method: 'GET', url: '/v1/people/:id' },
  async run({ ctx, auth }, { personId }) {
    const person = JSON.parse(await visiblePersonDocument(ctx, auth, personId)) as PersonOut;
    const recent = { personId, limit: RECENT };
    const open = { ...recent, isCompleted: false };
    const latest = { limit: RECENT };
    const [notes, calls, tasks, events] = await Promise.all([
      listNotes(ctx, auth, listRequest('/v1/notes', recent), recent),
      listCalls(ctx, auth, listRequest('/v1/calls', recent), recent),
      listTasks(ctx, auth, listRequest('/v1/tasks', open), open),
      listPersonEvents(ctx, auth, listRequest(`/v1/events/${personId}`, latest), personId, latest),
    ]);
    return {
      text:
        `${describe(person)}: ${notes.notes.length} recent notes, ${calls.calls.length} calls, ` +
        `${tasks.tasks.length} open tasks, ${events.events.length} lead events`,
      structured: {
        person,
        recentNotes: notes.notes,
        recentCalls: calls.calls,
        openTasks: tasks.tasks,
        recentEvents: events.events,
      },
    };
  },
});

export const createPerson = defineTool({
  name: 'create_person',
  title: 'Create a person',
  description:
    'Add a person (a contact or lead) assigned to you unless said otherwise. To record a lead from a website or portal, use send_lead_event instead.',
  input: PersonInput,
  output: objectOf({ person: Person }),
  annotations: adding,
  route: { method: 'POST', url: '/v1/people' },
  async run({ ctx, auth }, args) {
    const { document } = await createPersonAnswer(ctx, auth, args, {});
    const person = asObject<PersonOut>(document);
    return { text: `Created ${describe(person)}`, structured: { person } };
  },
});

export const updatePerson = defineTool({
  name: 'update_person',
  title: 'Update a person',
  description:
    'Change a person: only the fields given change (tags given replace the tags). Overwrites values, so it needs confirm: true once the user agreed.',
  input: Type.Composite([objectOf({ personId: PersonId, confirm: Confirm }), PersonInput], {
    additionalProperties: false,
  }),
  output: objectOf({ person: Person }),
  annotations: overwriting,
  route: { method: 'PUT', url: '/v1/people/:id' },
  async run({ ctx, auth }, { personId, confirm: _confirm, ...changes }) {
    const document = await updatePersonAnswer(ctx, auth, personId, changes, undefined);
    const person = asObject<PersonOut>(document);
    return { text: `Updated ${describe(person)}`, structured: { person } };
  },
});
