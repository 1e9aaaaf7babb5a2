import { useGetList } from 'react-admin';
import { WHOLE_LIST } from '../admin/kit';
import type { Lookup } from './model';
import type { Pipeline as ApiPipeline, PipelineStage } from '../api/types';

type Pipeline = Pick<ApiPipeline, 'id' | 'name'> & { stages: Pick<PipelineStage, 'id' | 'name'>[] };

/** The account's records an automation names by id, for the builder's choices and sentences. */
export function useAutomationChoices() {
  const users = useGetList('users', WHOLE_LIST).data ?? [];
  const stages = useGetList('stages', WHOLE_LIST).data ?? [];
  const templates = useGetList('templates', WHOLE_LIST).data ?? [];
  const groups = useGetList('groups', WHOLE_LIST).data ?? [];
  const ponds = useGetList('ponds', WHOLE_LIST).data ?? [];
  const actionPlans = useGetList('actionPlans', WHOLE_LIST).data ?? [];
  const pipelines = (useGetList('pipelines', WHOLE_LIST).data ?? []) as Pipeline[];
  const dealStages = pipelines.flatMap((p) =>
    p.stages.map((s) => ({ id: s.id, name: `${p.name}: ${s.name}`, pipelineId: p.id })),
  );
  const byKind: Record<string, { id: number | string; name?: string }[]> = {
    user: users,
    template: templates,
    group: groups,
    pond: ponds,
    actionPlan: actionPlans,
    dealStage: dealStages,
  };
  const name: Lookup = (kind, id) =>
    String(byKind[kind]?.find((r) => r.id === id)?.name ?? `#${id ?? '?'}`);
  return { users, stages, templates, groups, ponds, actionPlans, pipelines, dealStages, name };
}
export type AutomationChoices = ReturnType<typeof useAutomationChoices>;
