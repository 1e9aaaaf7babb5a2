import { useCallback, useEffect, useRef, useState } from 'react';
import type { Editor } from '@tiptap/react';
import {
  Alert,
  MenuItem,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { saveCampaign, type Campaign } from './api';
import { MERGE_FIELDS } from './mergeFields';
import { RichTextEditor } from './RichTextEditor';
import { visualEditorKeeps } from './bodyFormat';

type Field = 'subject' | 'bodyHtml';

/**
 * The campaign's subject and body, saved as you type (a sent campaign keeps the text it was sent
 * with), and a merge-field picker that inserts at the cursor of the field last used. The body is
 * written in the visual editor or as HTML source; HTML the visual editor would change opens as
 * source, with a word on why.
 */
export function Composer({
  campaign,
  onSaved,
}: {
  campaign: Campaign;
  onSaved: (campaign: Campaign) => void;
}) {
  const [text, setText] = useState({ subject: campaign.subject, bodyHtml: campaign.bodyHtml });
  const [saved, setSaved] = useState(text);
  const [state, setState] = useState<'saved' | 'saving' | 'error'>('saved');
  const refs = {
    subject: useRef<HTMLInputElement>(null),
    bodyHtml: useRef<HTMLTextAreaElement>(null),
  };
  const last = useRef<Field>('bodyHtml');
  const [keeps] = useState(() => visualEditorKeeps(campaign.bodyHtml));
  const [mode, setMode] = useState<'visual' | 'html'>(keeps ? 'visual' : 'html');
  const editor = useRef<Editor | null>(null);
  const onEditor = useCallback((e: Editor | null) => {
    editor.current = e;
  }, []);

  // Changes wait 600 ms for the next keystroke before they are saved: "Saved" only once they are.
  const pending = text.subject !== saved.subject || text.bodyHtml !== saved.bodyHtml;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(async () => {
      setState('saving');
      try {
        onSaved(await saveCampaign(campaign.id, text));
        setSaved(text);
        setState('saved');
      } catch {
        setState('error');
      }
    }, 600);
    return () => clearTimeout(timer);
  }, [text, saved, pending, campaign.id, onSaved]);

  function insert(token: string) {
    const field = last.current;
    if (field === 'bodyHtml' && mode === 'visual' && editor.current) {
      editor.current.chain().focus().insertContent(token).run();
      return;
    }
    const input = refs[field].current;
    const value = text[field];
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? value.length;
    setText({ ...text, [field]: value.slice(0, start) + token + value.slice(end) });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="compose-heading">
      <Stack spacing={2}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography id="compose-heading" variant="h6" component="h2">
            Message
          </Typography>
          <Typography
            variant="body2"
            color={state === 'error' ? 'error' : 'text.secondary'}
            role="status"
          >
            {state === 'error'
              ? 'Not saved: try again'
              : state === 'saving' || pending
                ? 'Saving…'
                : 'Saved'}
          </Typography>
        </Stack>
        <TextField
          label="Subject"
          value={text.subject}
          inputRef={refs.subject}
          onFocus={() => (last.current = 'subject')}
          onChange={(e) => setText({ ...text, subject: e.target.value })}
          slotProps={{ htmlInput: { maxLength: 1000 } }}
        />
        <TextField
          select
          label="Insert merge field"
          value=""
          onChange={(e) => insert(e.target.value)}
          helperText="Replaced for each recipient when sent or displayed. %contact_first_name|there% writes “there” when the field is empty."
          sx={{ maxWidth: { sm: 360 } }}
        >
          {MERGE_FIELDS.map((f) => (
            <MenuItem key={f.token} value={f.token}>
              {f.label}{' '}
              <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: 13 }}>
                {f.token}
              </Typography>
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id="body-label" variant="subtitle2" component="h3">
            Body
          </Typography>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={mode}
            onChange={(_e, next) => next && setMode(next)}
            aria-label="Body editor"
          >
            <ToggleButton value="visual">Visual</ToggleButton>
            <ToggleButton value="html">HTML source</ToggleButton>
          </ToggleButtonGroup>
        </Stack>
        {!keeps ? (
          <Alert severity="info">
            This message has formatting the visual editor has no place for (inline styles, tables or
            images), so it opens as HTML. Editing it in the visual editor rewrites it as plain
            formatted text.
          </Alert>
        ) : null}
        {mode === 'visual' ? (
          <RichTextEditor
            html={text.bodyHtml}
            onChange={(bodyHtml) => setText((t) => ({ ...t, bodyHtml }))}
            onEditor={onEditor}
            onFocus={() => (last.current = 'bodyHtml')}
          />
        ) : (
          <TextField
            label="Body (HTML)"
            value={text.bodyHtml}
            inputRef={refs.bodyHtml}
            onFocus={() => (last.current = 'bodyHtml')}
            onChange={(e) => setText({ ...text, bodyHtml: e.target.value })}
            multiline
            minRows={8}
            maxRows={20}
            slotProps={{
              htmlInput: { style: { fontFamily: 'ui-monospace, monospace', fontSize: 13 } },
            }}
          />
        )}
      </Stack>
    </Paper>
  );
}
