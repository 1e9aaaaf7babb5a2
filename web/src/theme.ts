import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** Warm brand colour, roomier type; contrast checked by axe in the browser tests. */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    mode: 'light',
    primary: { main: '#9a3f1c' },
    secondary: { main: '#2f4858' },
    error: { main: '#b3261e' },
    background: { default: '#f7f5f2' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    ...defaultTheme.components,
    MuiAppBar: { styleOverrides: { colorPrimary: { backgroundColor: '#2f2a26' } } },
    // react-admin's loading spinners carry no name; screen readers then announce a bare progressbar.
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
    MuiLinearProgress: { defaultProps: { 'aria-label': 'Loading' } },
  },
};
