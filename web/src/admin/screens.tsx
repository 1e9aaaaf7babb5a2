import type { ReactElement } from 'react';
import { StagesScreen } from './StagesScreen';
import { CustomFieldsScreen } from './CustomFieldsScreen';
import { UsersScreen } from './UsersScreen';
import { PipelinesScreen } from './PipelinesScreen';
import { ActionPlansScreen } from './ActionPlansScreen';
import { TemplatesScreen } from './TemplatesScreen';
import { LeadFlowsScreen } from './LeadFlowsScreen';
import { SystemsScreen } from './SystemsScreen';
import { WebhooksScreen } from './WebhooksScreen';

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
    path: 'lead-flows',
    label: 'Lead flows and groups',
    description:
      'Who gets new leads from each source: a user, or a group round robin or first to claim',
    element: <LeadFlowsScreen />,
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
];
