import { Admin, CustomRoutes, Resource } from 'react-admin';
import { BrowserRouter, Route } from 'react-router-dom';
import { authProvider } from './api/authProvider';
import { dataProvider } from './api/dataProvider';
import { Layout } from './layout/Layout';
import { LoginPage } from './login/LoginPage';
import { SetPasswordPage } from './login/SetPasswordPage';
import { PeopleList } from './people/PeopleList';
import { PersonCreate } from './people/PersonCreate';
import { PersonPage } from './person/PersonPage';
import { AdminArea } from './admin/AdminArea';
import { MyDay } from './myday/MyDay';
import { DealsBoard } from './deals/DealsBoard';
import { SettingsPage } from './settings/SettingsPage';
import { appScreens } from './extensions';
import { theme } from './theme';

export function App() {
  return (
    <BrowserRouter>
      <Admin
        title="Hearth"
        dataProvider={dataProvider}
        authProvider={authProvider}
        loginPage={LoginPage}
        layout={Layout}
        theme={theme}
        requireAuth
        disableTelemetry
      >
        <Resource
          name="people"
          list={PeopleList}
          create={PersonCreate}
          edit={PersonPage}
          recordRepresentation="name"
        />
        <Resource name="users" recordRepresentation="name" />
        <Resource name="stages" recordRepresentation="name" />
        <Resource name="smartLists" recordRepresentation="name" />
        <CustomRoutes noLayout>
          <Route path="/set-password" element={<SetPasswordPage />} />
        </CustomRoutes>
        <CustomRoutes>
          <Route path="/my-day" element={<MyDay />} />
          <Route path="/deals" element={<DealsBoard />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/admin/*" element={<AdminArea />} />
          {appScreens.map((screen) => (
            <Route key={screen.path} path={`${screen.path}/*`} element={screen.element} />
          ))}
        </CustomRoutes>
      </Admin>
    </BrowserRouter>
  );
}
