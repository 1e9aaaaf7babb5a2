import { Route, Routes, Link } from 'react-router-dom';
import { usePermissions } from 'react-admin';
import { Alert, Card, CardActionArea, CardContent, Grid, Typography } from '@mui/material';
import { PageHeading } from '../layout/PageHeading';
import { adminScreens } from './screens';

function AdminHome() {
  const { permissions } = usePermissions();
  const visible = adminScreens.filter((s) => !s.roles || s.roles.includes(permissions));
  return (
    <>
      <PageHeading>Admin</PageHeading>
      {visible.length === 0 ? <Alert severity="info">No admin screens yet.</Alert> : null}
      <Grid container spacing={2}>
        {visible.map((screen) => (
          <Grid key={screen.path} size={{ xs: 12, sm: 6, md: 4 }}>
            <Card variant="outlined">
              <CardActionArea component={Link} to={`/admin/${screen.path}`}>
                <CardContent>
                  <Typography variant="h6" component="h2">
                    {screen.label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {screen.description}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}

/** /admin/*: Owner and Admin only (the server refuses the others' writes anyway). */
export function AdminArea() {
  const { permissions, isPending } = usePermissions();
  if (isPending) return null;
  if (permissions !== 'Owner' && permissions !== 'Admin') {
    return (
      <>
        <PageHeading>Admin</PageHeading>
        <Alert severity="warning">The admin area is for Owners and Admins.</Alert>
      </>
    );
  }
  return (
    <Routes>
      <Route index element={<AdminHome />} />
      {adminScreens.map((screen) => (
        <Route key={screen.path} path={`${screen.path}/*`} element={screen.element} />
      ))}
    </Routes>
  );
}
