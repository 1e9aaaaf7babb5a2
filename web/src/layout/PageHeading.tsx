import type { ReactNode } from 'react';
import { Title } from 'react-admin';
import { Typography } from '@mui/material';

/** The page's one h1 (the accessible heading checks rely on) and the app bar title. */
export function PageHeading({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <>
      <Title title={title ?? (typeof children === 'string' ? children : 'Hearth')} />
      <Typography variant="h5" component="h1" sx={{ mt: 2, mb: 1, fontWeight: 700 }}>
        {children}
      </Typography>
    </>
  );
}
