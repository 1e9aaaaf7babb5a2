import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Button } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';

/**
 * The board's row of columns. When they do not fit (six stages at 1280 px), the hidden side fades
 * and a button says there is more and scrolls to it, so no column is cut off without a hint.
 */
export function ScrollingColumns({ children }: { children: ReactNode }) {
  const row = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const el = row.current;
    if (!el) return;
    setHidden({
      left: el.scrollLeft > 1,
      right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
    });
  }, []);
  useEffect(() => {
    const el = row.current;
    if (!el) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [measure, children]);
  const scroll = (direction: 1 | -1) =>
    row.current?.scrollBy({ left: direction * row.current.clientWidth * 0.8, behavior: 'smooth' });
  const fade = (side: 'left' | 'right') => ({
    position: 'absolute',
    top: hidden.left || hidden.right ? 34 : 0,
    bottom: 16,
    [side]: 0,
    width: 56,
    pointerEvents: 'none',
    background: (theme: { palette: { background: { default: string } } }) =>
      `linear-gradient(to ${side}, transparent, ${theme.palette.background.default})`,
  });
  return (
    <Box sx={{ position: 'relative' }}>
      {hidden.left || hidden.right ? (
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
          <Button
            size="small"
            startIcon={<ChevronLeftIcon />}
            onClick={() => scroll(-1)}
            sx={{ visibility: hidden.left ? 'visible' : 'hidden' }}
          >
            Earlier stages
          </Button>
          <Button
            size="small"
            endIcon={<ChevronRightIcon />}
            onClick={() => scroll(1)}
            sx={{ visibility: hidden.right ? 'visible' : 'hidden' }}
          >
            More stages
          </Button>
        </Box>
      ) : null}
      {/* Focusable, so keyboard users can scroll the columns too (axe: scrollable-region-focusable). */}
      <Box
        ref={row}
        onScroll={measure}
        tabIndex={0}
        role="region"
        aria-label="Stages"
        sx={{
          display: 'flex',
          gap: 1.5,
          overflowX: 'auto',
          pb: 2,
          scrollSnapType: { xs: 'x mandatory', sm: 'none' },
        }}
      >
        {children}
      </Box>
      {hidden.left ? <Box sx={fade('left')} aria-hidden /> : null}
      {hidden.right ? <Box sx={fade('right')} aria-hidden /> : null}
    </Box>
  );
}
