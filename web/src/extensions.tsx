import { lazy, type ReactElement, Suspense } from 'react';
import { Menu } from 'react-admin';
import CampaignIcon from '@mui/icons-material/Campaign';
import InsightsIcon from '@mui/icons-material/Insights';
import type { Role } from './api/session';
import { ExportButton } from './imports/ExportButton';
import { ImportButton } from './imports/ImportButton';
import { ImportScreen } from './imports/ImportScreen';
import { CampaignsScreen } from './campaigns/CampaignsScreen';
import MarkEmailUnreadIcon from '@mui/icons-material/MarkEmailUnread';
import FilterListIcon from '@mui/icons-material/FilterList';
import { SmartListsScreen } from './smartLists/SmartListsScreen';
import { SaveSmartListButton } from './smartLists/SaveSmartListButton';
import { LeadEmailsScreen } from './leadEmails/LeadEmailsScreen';

/**
 * Where other helpers plug screens into the app without touching its frame. Add one entry to the
 * list you need (keep both sides when rebasing); each file you add lives in its own folder.
 */
export interface AppScreen {
  /** Route path inside the app, e.g. `/campaigns` (keep it one segment; nested routes go `/x/*`). */
  path: string;
  /** Menu label; also the page's h1 by convention. Omit to keep the screen off the menu. */
  label?: string;
  icon?: ReactElement;
  /** Who sees the menu entry; the API still decides what they may do. Omit for everyone. */
  roles?: Role[];
  element: ReactElement;
}

// The charts library loads with the Reports page only, not with every page of the app.
const ReportsPage = lazy(() =>
  import('./reports/ReportsPage').then((m) => ({ default: m.ReportsPage })),
);

/** Signed-in screens with the app's layout (menu, Sign out). */
export const appScreens: AppScreen[] = [
  { path: '/import', roles: ['Owner', 'Admin', 'Agent'], element: <ImportScreen /> },
  {
    path: '/smart-lists',
    label: 'Smart lists',
    icon: <FilterListIcon />,
    element: <SmartListsScreen />,
  },
  {
    path: '/campaigns',
    label: 'Campaigns',
    icon: <CampaignIcon />,
    roles: ['Owner', 'Admin', 'Agent'],
    element: <CampaignsScreen />,
  },
  {
    path: '/lead-emails',
    label: 'Lead emails',
    icon: <MarkEmailUnreadIcon />,
    roles: ['Owner', 'Admin'],
    element: <LeadEmailsScreen />,
  },
  {
    path: '/reports',
    label: 'Reports',
    icon: <InsightsIcon />,
    element: (
      <Suspense fallback={null}>
        <ReportsPage />
      </Suspense>
    ),
  },
];

/** Buttons in the People list's toolbar (e.g. Import, Export). Each gets the list's context. */
export const peopleListButtons: ReactElement[] = [
  <SaveSmartListButton />,
  <ExportButton />,
  <ImportButton />,
];

export function extraMenuItems(role: Role | undefined) {
  return appScreens
    .filter((screen) => screen.label && (!screen.roles || (role && screen.roles.includes(role))))
    .map((screen) => (
      <Menu.Item
        key={screen.path}
        to={screen.path}
        primaryText={screen.label}
        leftIcon={screen.icon}
      />
    ));
}

export function peopleListActions() {
  return peopleListButtons.map((button, index) => <span key={index}>{button}</span>);
}
