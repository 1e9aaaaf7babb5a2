import { Type } from '@sinclair/typebox';
import { MAX_ID, Nullable } from '../platform/http/schemas.js';

const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
const periodFields = {
  since: Type.Optional(
    Type.String({ description: 'ISO 8601 date or timestamp; default 30 days before until' }),
  ),
  until: Type.Optional(
    Type.String({ description: 'ISO 8601 date or timestamp, exclusive; default now' }),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      description: 'json (default) or csv (one line per row)',
    }),
  ),
  userId: Type.Optional(Id),
  teamId: Type.Optional({ ...Id, description: "the team's members only" }),
};

export const AgentActivityQuery = Type.Object(periodFields, { additionalProperties: false });
export const LeadSourcesQuery = Type.Object(
  { ...periodFields, source: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });

export const AgentActivityRow = Type.Object({
  userId: Type.Integer(),
  name: Type.String(),
  newLeads: { ...Count, description: 'people created in the period assigned to the user' },
  contacted: {
    ...Count,
    description: 'of those, the ones with an outgoing call, text or email after they were created',
  },
  speedToLeadSeconds: Nullable(
    Type.Number({ description: 'median seconds from created to first contact (contacted ones)' }),
  ),
  calls: Count,
  textMessages: Count,
  emails: Count,
  notes: Count,
  appointments: Count,
  tasksCompleted: Count,
});

export const AgentActivityReport = Type.Object({
  since: Type.String(),
  until: Type.String(),
  agents: Type.Array(AgentActivityRow),
});

export const LeadSourceRow = Type.Object({
  source: Type.String(),
  leads: Count,
  contacted: Count,
  appointments: { ...Count, description: 'of the leads, those invited to an appointment' },
  deals: { ...Count, description: 'deals (not Deleted) holding at least one of the leads' },
  dealValue: Type.Number({ description: "the sum of those deals' price" }),
});

export const LeadSourcesReport = Type.Object({
  since: Type.String(),
  until: Type.String(),
  sources: Type.Array(LeadSourceRow),
});

export const ReportPeopleQuery = Type.Object(
  {
    ...periodFields,
    source: Type.Optional(Type.String({ maxLength: 200 })),
    contacted: Type.Optional(Type.Boolean({ description: 'only the contacted ones, or only not' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);

export const ReportPerson = Type.Object({
  personId: Type.Integer(),
  name: Type.String(),
  source: Type.String(),
  userId: Nullable(Type.Integer()),
  created: Type.String(),
  firstContact: Nullable(Type.String()),
  waitedSeconds: Type.Integer({
    description: 'seconds from created to first contact, or to now when nobody has contacted them',
  }),
});

export const ReportPeople = Type.Object({
  since: Type.String(),
  until: Type.String(),
  people: Type.Array(ReportPerson),
});

export const PipelineQuery = Type.Object(
  {
    since: periodFields.since,
    until: periodFields.until,
    format: periodFields.format,
    pipelineId: Type.Optional(Id),
  },
  { additionalProperties: false },
);

const Money = Type.Number();
const MonthTotals = Type.Object({
  month: Type.String({ description: 'YYYY-MM' }),
  deals: Count,
  value: Money,
});

export const StageTotals = Type.Object({
  pipelineId: Type.Integer(),
  pipelineName: Type.String(),
  stageId: Type.Integer(),
  stageName: Type.String(),
  deals: Count,
  value: Money,
});

export const PipelineReport = Type.Object({
  since: Type.String(),
  until: Type.String(),
  stages: Type.Array(StageTotals, { description: 'deals now, by pipeline and stage' }),
  closedByMonth: Type.Array(MonthTotals, { description: 'entered a closed stage in the period' }),
  expectedByMonth: Type.Array(MonthTotals, {
    description: 'open deals by projected close date in the period',
  }),
});

export const CampaignsQuery = Type.Object(
  { ...periodFields, campaignId: Type.Optional(Id) },
  { additionalProperties: false },
);

const campaignFigures = {
  sends: { ...Count, description: 'delivered emails' },
  opens: { ...Count, description: 'open events' },
  clicks: { ...Count, description: 'click events' },
  unsubscribes: Count,
  bounces: { ...Count, description: 'bounced, soft and hard bounces' },
};

export const CampaignRow = Type.Object({
  campaignId: Type.Integer(),
  name: Type.String(),
  origin: Type.String({ description: 'the sending system (Hearth for built-in campaigns)' }),
  ...campaignFigures,
});

export const CampaignsReport = Type.Object({
  since: Type.String(),
  until: Type.String(),
  campaigns: Type.Array(CampaignRow, { description: 'campaigns with events, most sends first' }),
  byDay: Type.Array(
    Type.Object({ day: Type.String({ description: 'YYYY-MM-DD, UTC' }), ...campaignFigures }),
    {
      description: 'every campaign together, per UTC day',
    },
  ),
});

export const TeamQuery = Type.Object(
  {
    since: periodFields.since,
    until: periodFields.until,
    format: periodFields.format,
    teamId: periodFields.teamId,
  },
  { additionalProperties: false },
);

export const TeamAgentRow = Type.Object({
  userId: Type.Integer(),
  name: Type.String(),
  newLeads: { ...Count, description: 'people created in the period assigned to the agent' },
  uncontacted: { ...Count, description: 'of those, the ones nobody has contacted yet' },
  overdueTasks: { ...Count, description: 'open tasks assigned to the agent due before today' },
  tasksDueToday: { ...Count, description: 'open tasks assigned to the agent due today (UTC)' },
});

export const TeamReport = Type.Object({
  since: Type.String(),
  until: Type.String(),
  agents: Type.Array(TeamAgentRow),
});
