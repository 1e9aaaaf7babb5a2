import { fetchPage } from '../api/lists';
import type { Deal, Person, Task } from '../api/types';

export interface SearchHit {
  kind: 'person' | 'deal' | 'task';
  id: number;
  /** The link the hit opens. */
  to: string;
  title: string;
  detail: string;
}

type PersonHit = Pick<Person, 'id' | 'name' | 'stage' | 'emails' | 'phones'>;

type DealHit = Pick<Deal, 'id' | 'name' | 'stageName' | 'pipelineName' | 'people'>;

type TaskHit = Pick<Task, 'id' | 'name' | 'personId' | 'dueDate' | 'isCompleted'>;

const PER_KIND = 6;

/** Tasks by name, the latest changed first, with the name of the person each is on. */
async function searchTasks(q: string): Promise<SearchHit[]> {
  const tasks = await fetchPage<TaskHit>(`/v1/tasks?q=${q}&limit=${PER_KIND}&sort=-updated`);
  const personIds = [...new Set(tasks.items.map((t) => t.personId))];
  const people = personIds.length
    ? await fetchPage<Pick<Person, 'id' | 'name'>>(
        `/v1/people?id=${personIds.join(',')}&limit=${personIds.length}&fields=name`,
      )
    : { items: [] };
  const names = new Map(people.items.map((p) => [p.id, p.name]));
  return tasks.items.map((t) => ({
    kind: 'task' as const,
    id: t.id,
    to: `/people/${t.personId}`,
    title: t.name,
    detail: [names.get(t.personId), t.isCompleted ? 'Done' : t.dueDate ? `Due ${t.dueDate}` : null]
      .filter(Boolean)
      .join(' · '),
  }));
}

/**
 * People (name, email, phone: the People list's own `q`), deals (name) and tasks (name, opening
 * the person they are on) matching the text, through the API's list endpoints, so an Agent finds
 * only what she may see.
 */
export async function searchEverything(text: string): Promise<SearchHit[]> {
  const q = encodeURIComponent(text.trim());
  const [people, deals, tasks] = await Promise.all([
    fetchPage<PersonHit>(`/v1/people?q=${q}&limit=${PER_KIND}&fields=name,stage,emails,phones`),
    fetchPage<DealHit>(`/v1/deals?q=${q}&limit=${PER_KIND}&sort=-updated`),
    searchTasks(q),
  ]);
  return [
    ...people.items.map((p) => ({
      kind: 'person' as const,
      id: p.id,
      to: `/people/${p.id}`,
      title: p.name || 'Unnamed person',
      detail: [p.stage, p.emails?.[0]?.value, p.phones?.[0]?.value].filter(Boolean).join(' · '),
    })),
    ...deals.items.map((d) => ({
      kind: 'deal' as const,
      id: d.id,
      to: `/deals?deal=${d.id}`,
      title: d.name,
      detail: [d.pipelineName, d.stageName, d.people?.map((p) => p.name).join(', ')]
        .filter(Boolean)
        .join(' · '),
    })),
    ...tasks,
  ];
}
