import type { ReactElement } from 'react';
import { StagesScreen } from './StagesScreen';
import { CustomFieldsScreen } from './CustomFieldsScreen';
import { UsersScreen } from './UsersScreen';
import { PipelinesScreen } from './PipelinesScreen';
import { ActionPlansScreen } from './ActionPlansScreen';
import { TemplatesScreen } from './TemplatesScreen';
import { TextTemplatesScreen } from './TextTemplatesScreen';
import { PondsTeamsScreen } from './PondsTeamsScreen';
import { LeadFlowsScreen } from './LeadFlowsScreen';
import { SystemsScreen } from './SystemsScreen';
import { WebhooksScreen } from './WebhooksScreen';
import { LeadAddressesScreen } from '../leadEmails/LeadAddressesCard';
import { AssistantsScreen } from './AssistantsScreen';
import { AutomationsScreen } from '../automations/AutomationsScreen';

/**
 * The admin area's screens (Owner/Admin), at /admin/<path>. The `auth` helper adds entries here,
 * one file per screen in this folder. The API enforces the role rules; `roles` only hides links.
 */
export interface AdminScreen {
  path: string;
  label: string;
  description: string;
  roles?: ('Owner' | 'Admin')[];
  element: ReactElement;
}

export const adminScreens: AdminScreen[] = [
  {
    path: 'users',
    label: 'Users',
    description: 'People who work in Hearth: roles, invites, deactivation',
    element: <UsersScreen />,
  },
  {
    path: 'stages',
    label: 'Stages',
    description: 'The stages of people, in order (drag to reorder)',
    element: <StagesScreen />,
  },
  {
    path: 'custom-fields',
    label: 'Custom fields',
    description: 'Extra fields on people and on deals',
    element: <CustomFieldsScreen />,
  },
  {
    path: 'pipelines',
    label: 'Pipelines',
    description: 'Deal pipelines and their stages, in order (drag to reorder)',
    roles: ['Owner'],
    element: <PipelinesScreen />,
  },
  {
    path: 'automations',
    label: 'Automations',
    description: 'When something happens to a person, act by itself: tasks, emails, tags, waits',
    element: <AutomationsScreen />,
  },
  {
    path: 'lead-email',
    label: 'Lead email addresses',
    description:
      'Where portals and websites send lead emails (see Lead emails for the unread ones)',
    element: <LeadAddressesScreen />,
  },
  {
    path: 'lead-flows',
    label: 'Lead flows and groups',
    description:
      'Who gets new leads from each source: a user, or a group round robin or first to claim',
    element: <LeadFlowsScreen />,
  },
  {
    path: 'ponds-teams',
    label: 'Ponds and teams',
    description: 'Shared pools of leads and their lead agent; teams, their leaders and members',
    element: <PondsTeamsScreen />,
  },
  {
    path: 'action-plans',
    label: 'Action plans',
    description: 'Follow-up steps (tasks, emails, texts) that run for a person',
    element: <ActionPlansScreen />,
  },
  {
    path: 'templates',
    label: 'Email templates',
    description: 'Emails with merge fields, previewed for a chosen person',
    element: <TemplatesScreen />,
  },
  {
    path: 'text-templates',
    label: 'Text message templates',
    description: 'Texts with merge fields, previewed for a chosen person',
    element: <TextTemplatesScreen />,
  },
  {
    path: 'systems',
    label: 'Systems',
    description: 'Registered integrations and their rate-limit usage, hour by hour',
    element: <SystemsScreen />,
  },
  {
    path: 'webhooks',
    label: 'Webhooks',
    description: 'Where changes are sent, each delivery attempt, redelivery',
    roles: ['Owner'],
    element: <WebhooksScreen />,
  },
  {
    path: 'assistants',
    label: 'AI assistants',
    description: 'Assistants connected through MCP, every tool call they made, disconnecting one',
    roles: ['Owner'],
    element: <AssistantsScreen />,
  },
];
