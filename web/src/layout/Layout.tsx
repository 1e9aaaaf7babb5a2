import type { ReactNode } from 'react';
import {
  AppBar,
  Layout as RaLayout,
  Menu,
  TitlePortal,
  useGetIdentity,
  useLogout,
  usePermissions,
} from 'react-admin';
import { Box, Button, Typography, useMediaQuery, type Theme } from '@mui/material';
import PeopleIcon from '@mui/icons-material/People';
import TodayIcon from '@mui/icons-material/Today';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import SettingsIcon from '@mui/icons-material/Settings';
import { extraMenuItems } from '../extensions';

/** Sign out is a visible button on every signed-in page (CONTRACT), not hidden in a menu. */
function SignOutButton() {
  const logout = useLogout();
  return (
    <Button color="inherit" onClick={() => logout()} sx={{ whiteSpace: 'nowrap' }}>
      Sign out
    </Button>
  );
}

function HearthAppBar() {
  const { identity } = useGetIdentity();
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  return (
    <AppBar userMenu={false} color="primary">
      <TitlePortal component="span" />
      <Box sx={{ flex: 1 }} />
      {wide && identity?.fullName ? (
        <Typography variant="body2" sx={{ mr: 2 }}>
          {identity.fullName}
        </Typography>
      ) : null}
      <SignOutButton />
    </AppBar>
  );
}

function HearthMenu() {
  const { permissions } = usePermissions();
  const admin = permissions === 'Owner' || permissions === 'Admin';
  return (
    <Menu>
      <Menu.Item to="/people" primaryText="People" leftIcon={<PeopleIcon />} />
      <Menu.Item to="/my-day" primaryText="My day" leftIcon={<TodayIcon />} />
      <Menu.Item to="/deals" primaryText="Deals" leftIcon={<ViewKanbanIcon />} />
      {extraMenuItems(permissions)}
      {admin ? <Menu.Item to="/admin" primaryText="Admin" leftIcon={<SettingsIcon />} /> : null}
    </Menu>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout
      appBar={HearthAppBar}
      menu={HearthMenu}
      // Wide content (the deals board, long tabs) scrolls inside the page instead of widening it
      // past a phone's screen, which would push Sign out out of view.
      sx={{
        minWidth: 0,
        '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': {
          minWidth: 0,
        },
      }}
    >
      {children}
    </RaLayout>
  );
}
