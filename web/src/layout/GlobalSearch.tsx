import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import {
  Box,
  Button,
  Dialog,
  IconButton,
  InputAdornment,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { visuallyHidden } from './visuallyHidden';
import { searchEverything, type SearchHit } from './searchApi';
import { SearchResults } from './SearchResults';

const SEARCH_LABEL = 'Search people, deals and tasks';

/** Keys that open the search: "/" outside a text field, Ctrl+K or ⌘K anywhere. */
function useOpenKeys(open: () => void) {
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing =
        !!target &&
        (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
      const ctrlK = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';
      if (ctrlK || (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey)) {
        event.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

/** The text, settled: the search runs 200 ms after the last key, not on every key. */
function useDebounced(text: string, ms = 200) {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return settled;
}

function SearchDialog({ onOpen }: { onOpen: (to: string) => void }) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const query = useDebounced(text.trim());
  const results = useQuery({
    queryKey: ['globalSearch', query],
    queryFn: () => searchEverything(query),
    enabled: query.length >= 2,
    placeholderData: (previous) => previous,
    staleTime: 10_000,
  });
  const hits = query.length >= 2 ? (results.data ?? []) : [];
  useEffect(() => setActive(0), [query]);

  const open = (hit: SearchHit) => onOpen(hit.to);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (hits.length) setActive((i) => (i + step + hits.length) % hits.length);
    } else if (event.key === 'Enter' && hits[active]) {
      event.preventDefault();
      open(hits[active]);
    }
  };
  const optionId = (i: number) => `global-search-option-${i}`;

  return (
    <Box sx={{ p: { xs: 1.5, sm: 2 } }}>
      <TextField
        autoFocus
        fullWidth
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Name, email, phone, deal or task"
        slotProps={{
          htmlInput: {
            role: 'combobox',
            'aria-label': SEARCH_LABEL,
            'aria-expanded': hits.length > 0,
            'aria-controls': 'global-search-results',
            'aria-activedescendant': hits[active] ? optionId(active) : undefined,
            'aria-autocomplete': 'list',
            maxLength: 200,
          },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon />
              </InputAdornment>
            ),
          },
        }}
      />
      <SearchResults
        query={query}
        hits={hits}
        active={active}
        optionId={optionId}
        loading={results.isFetching}
        error={results.error as Error | null}
        onRetry={() => void results.refetch()}
        onHover={setActive}
        onOpen={open}
      />
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ display: { xs: 'none', sm: 'block' }, mt: 1 }}
      >
        ↑ ↓ to move, Enter to open, Esc to close
      </Typography>
    </Box>
  );
}

/**
 * The top bar's search over people, deals and tasks: a button (an icon on a phone) and the keys "/"
 * and Ctrl+K open a dialog whose results follow the typing and open with Enter or a tap.
 */
export function GlobalSearch() {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  // Where a chosen hit goes, once the dialog has closed: a dialog the target page opens (a deal)
  // would otherwise mount while this one is leaving, and be left hidden from assistive technology.
  const target = useRef<string | null>(null);
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'));
  useOpenKeys(() => setOpen(true));
  return (
    <>
      {wide ? (
        <Button
          color="inherit"
          onClick={() => setOpen(true)}
          startIcon={<SearchIcon />}
          aria-keyshortcuts="Control+K /"
          sx={{
            mr: 1,
            px: 1.5,
            minWidth: 260,
            justifyContent: 'flex-start',
            textTransform: 'none',
            bgcolor: 'rgba(255,255,255,0.12)',
            '&:hover': { bgcolor: 'rgba(255,255,255,0.2)' },
          }}
        >
          <Box component="span" sx={{ flex: 1, textAlign: 'left' }}>
            {SEARCH_LABEL}
          </Box>
          <Box component="kbd" sx={{ fontFamily: 'inherit', fontSize: 12, opacity: 0.85, ml: 1 }}>
            Ctrl K
          </Box>
        </Button>
      ) : (
        <IconButton color="inherit" onClick={() => setOpen(true)} sx={{ width: 48, height: 48 }}>
          <SearchIcon />
          <Box component="span" sx={visuallyHidden}>
            {SEARCH_LABEL}
          </Box>
        </IconButton>
      )}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="sm"
        sx={{ '& .MuiDialog-container': { alignItems: 'flex-start' } }}
        slotProps={{
          transition: {
            onExited: () => {
              if (target.current) navigate(target.current);
              target.current = null;
            },
          },
          paper: { 'aria-label': SEARCH_LABEL, sx: { mt: { xs: 1, sm: 8 }, mx: { xs: 1, sm: 4 } } },
        }}
      >
        {open ? (
          <SearchDialog
            onOpen={(to) => {
              target.current = to;
              setOpen(false);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}
