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
import {
  Avatar,
  Box,
  Button,
  ButtonBase,
  IconButton,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import { Link as RouterLink } from 'react-router-dom';
import { GlobalSearch } from './GlobalSearch';
import { NotificationBell } from './NotificationBell';
import { visuallyHidden } from './visuallyHidden';
import PeopleIcon from '@mui/icons-material/People';
import TodayIcon from '@mui/icons-material/Today';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import SettingsIcon from '@mui/icons-material/Settings';
import { extraMenuItems } from '../extensions';
import PersonIcon from '@mui/icons-material/Person';

/** Sign out is a visible button on every signed-in page (CONTRACT), not hidden in a menu; on a
 * phone an icon with that name, so the bar fits 390 px. */
function SignOutButton({ compact }: { compact: boolean }) {
  const logout = useLogout();
  if (compact)
    return (
      <IconButton color="inherit" onClick={() => logout()} aria-label="Sign out" sx={TAP}>
        <LogoutIcon />
      </IconButton>
    );
  return (
    <Button color="inherit" onClick={() => logout()} sx={{ whiteSpace: 'nowrap', minHeight: 44 }}>
      Sign out
    </Button>
  );
}

const TAP = { width: 48, height: 48 };

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

/** Who is signed in: their initials (and name on a wide screen), linking to their own settings. */
function UserButton({ name, wide }: { name: string; wide: boolean }) {
  return (
    <ButtonBase
      component={RouterLink}
      to="/settings"
      sx={{ minHeight: 48, minWidth: 48, px: wide ? 1 : 0.5, borderRadius: 6, gap: 1 }}
    >
      <Avatar aria-hidden sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'primary.main' }}>
        {initials(name) || '?'}
      </Avatar>
      <Box component="span" sx={visuallyHidden}>
        Your account:{' '}
      </Box>
      <Typography variant="body2" component="span" sx={wide ? undefined : visuallyHidden}>
        {name}
      </Typography>
    </ButtonBase>
  );
}

/**
 * Menu, title, search, notifications, the user and Sign out. On a phone the title stays off the
 * bar (the page's own heading says it, and a cut "Phoebe Bu" helps nobody) and every control is
 * an icon of at least 48 px.
 */
function HearthAppBar() {
  const { identity } = useGetIdentity();
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  return (
    <AppBar
      userMenu={false}
      color="primary"
      sx={{ '& .RaAppBar-toolbar': { gap: { xs: 0, sm: 0.5 }, pr: { xs: 0.5, sm: 1 } } }}
    >
      {wide ? <TitlePortal component="span" /> : <Box sx={{ flex: 1 }} />}
      <GlobalSearch />
      <NotificationBell />
      {identity?.fullName ? <UserButton name={identity.fullName} wide={wide} /> : null}
      <SignOutButton compact={!wide} />
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
      <Menu.Item to="/settings" primaryText="Settings" leftIcon={<PersonIcon />} />
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
