import { useQuery } from '@tanstack/react-query';
import { fetchPage } from './lists';

/** Names of the given people (one request), for lists that only carry a personId. */
export function usePeopleNames(ids: number[]): Map<number, string> {
  const wanted = [...new Set(ids.filter((id) => id > 0))].sort((a, b) => a - b).slice(0, 100);
  const { data } = useQuery({
    queryKey: ['peopleNames', wanted.join(',')],
    enabled: wanted.length > 0,
    queryFn: async () =>
      (
        await fetchPage<{ id: number; name: string }>(
          `/v1/people?id=${wanted.join(',')}&fields=name&limit=100`,
        )
      ).items,
  });
  return new Map((data ?? []).map((p) => [p.id, p.name]));
}
