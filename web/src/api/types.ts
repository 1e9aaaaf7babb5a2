// API shapes, generated from the OpenAPI document into clients/hearth-api.d.ts
// (`npm run openapi:types`). Import them from here, so renaming a field in the
// API breaks `tsc -p web/tsconfig.json` instead of the screen at run time.
import type { components, paths } from '../../../clients/hearth-api';

type Schemas = components['schemas'];

/** The JSON answer of a GET route, for answers without a named schema. */
export type GetAnswer<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer T } } } };
}
  ? T
  : never;

/** The JSON answer of a POST route. */
export type PostAnswer<P extends keyof paths> = paths[P] extends {
  post: { responses: infer R };
}
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : never
  : never;

/**
 * People and deals also carry custom fields (an index signature), under which a renamed field
 * would still compile: screens use their named fields only.
 */
type KnownFields<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
export type Person = KnownFields<Schemas['Person']>;
export type Deal = KnownFields<Schemas['Deal']>;
export type Pipeline = Schemas['Pipeline'];
export type PipelineStage = Schemas['PipelineStage'];
export type Stage = Schemas['Stage'];
export type User = Schemas['User'];
export type Template = Schemas['Template'];
export type TextMessageTemplate = Schemas['TextMessageTemplate'];
export type TextTemplateMerged = Schemas['TextTemplateMerged'];
export type SmartList = Schemas['SmartList'];
export type SmartListFilters = Schemas['SmartListFilters'];
export type Pond = Schemas['Pond'];
export type Team = Schemas['Team'];
export type EmCampaign = Schemas['EmCampaign'];
export type EmStats = Schemas['EmStats'];
export type CampaignSendProgress = Schemas['CampaignSendProgress'];
export type SendPreview = Schemas['SendPreview'];
export type Webhook = Schemas['Webhook'];
export type WebhookAttempt = Schemas['Attempt'];
export type ActionPlan = Schemas['ActionPlan'];
export type ActionPlanStep = Schemas['ActionPlanStep'];
export type CustomField = Schemas['CustomField'];
export type Group = Schemas['Group'];
export type LeadFlow = Schemas['LeadFlow'];
export type Automation = Schemas['Automation'];
export type AutomationAction = Automation['actions'][number];
export type AutomationConditions = Schemas['Conditions'];
export type Notification = Schemas['Notification'];
export type InboundEmail = Schemas['InboundEmail'];
export type InboundEmailDetail = Schemas['InboundEmailDetail'];
export type System = Schemas['System'];
export type SystemUsage = Schemas['SystemUsage'];
export type Task = Schemas['Task'];
export type Appointment = Schemas['Appointment'];
export type Reaction = Schemas['Reaction'];
export type ThreadedReply = Schemas['ThreadedReply'];
export type AgentActivityRow = Schemas['AgentActivityRow'];
export type LeadSourceRow = Schemas['LeadSourceRow'];
export type ReportPerson = Schemas['ReportPerson'];
export type StageTotals = Schemas['StageTotals'];
export type CampaignRow = Schemas['CampaignRow'];
export type TeamAgentRow = Schemas['TeamAgentRow'];
export type CheckDuplicateResult = Schemas['CheckDuplicateResult'];
export type ImportPreview = Schemas['CreateImportsPreviewResponse'];
export type ImportState = Schemas['GetImportsByIdResponse'];
export type Session = Schemas['GetAuthSessionResponse'];
export type ErrorBody = Schemas['ErrorResponse'];
export type Invite = GetAnswer<'/v1/invites'>['invites'][number];
export type NewInvite = PostAnswer<'/v1/invites'>;
export type Assistant = Schemas['GetMcpAssistantsResponse']['assistants'][number];
export type ToolCall = Schemas['GetMcpToolCallsResponse']['toolcalls'][number];
export type GroupRotation = Schemas['GetGroupsRoundRobinResponse']['groups'][number];
export type Note = Schemas['Note'];
export type AutomationPerson = Schemas['AutomationPerson'];
export type BulkAction = Schemas['BulkAction'];
/** Every list answer carries this beside its collection. */
export type ListMetadata = Schemas['GetPeopleResponse']['_metadata'];
export type ListEnvelope = { _metadata: ListMetadata } & Record<string, unknown>;
export type Identity = Schemas['Identity'];
export type Mailbox = Schemas['Mailbox'];
export type Email = Schemas['Email'];
