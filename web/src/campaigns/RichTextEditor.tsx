import { useEffect, type ReactNode } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Box, Divider, IconButton, Stack, Tooltip } from '@mui/material';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import TitleIcon from '@mui/icons-material/Title';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import LinkIcon from '@mui/icons-material/Link';
import UndoIcon from '@mui/icons-material/Undo';
import RedoIcon from '@mui/icons-material/Redo';

/**
 * TipTap (ProseMirror) with its starter kit: paragraphs, headings, bold, italic, underline,
 * lists, quotes and links. Its HTML holds only those elements, and links only http(s) and
 * mailto addresses, so what it saves is clean HTML the sender takes as it is.
 */
export const editorExtensions = [
  StarterKit.configure({
    heading: { levels: [1, 2, 3] },
    codeBlock: false,
    code: false,
    link: {
      openOnClick: false,
      protocols: ['mailto'],
      // An email link needs no target or rel; the recipient's mail program decides.
      HTMLAttributes: { target: null, rel: null, class: null },
    },
  }),
];

function Tool({
  label,
  active,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={label}>
      <IconButton
        aria-label={label}
        aria-pressed={active}
        size="small"
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
        color={active ? 'primary' : 'default'}
        sx={{ borderRadius: 1, bgcolor: active ? 'action.selected' : undefined }}
      >
        {children}
      </IconButton>
    </Tooltip>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const on = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      heading: e.isActive('heading', { level: 2 }),
      bullets: e.isActive('bulletList'),
      numbers: e.isActive('orderedList'),
      link: e.isActive('link'),
    }),
  });
  const chain = () => editor.chain().focus();
  const link = () => {
    const current = editor.getAttributes('link').href as string | undefined;
    const href = window.prompt(
      'Link address (https://… or mailto:…); empty removes the link',
      current ?? 'https://',
    );
    if (href === null) return;
    if (href.trim() === '') chain().extendMarkRange('link').unsetLink().run();
    else chain().extendMarkRange('link').setLink({ href: href.trim() }).run();
  };
  return (
    <Stack
      direction="row"
      role="toolbar"
      aria-label="Formatting"
      sx={{ flexWrap: 'wrap', gap: 0.25, p: 0.5, borderBottom: 1, borderColor: 'divider' }}
    >
      <Tool label="Bold" active={on.bold} onClick={() => chain().toggleBold().run()}>
        <FormatBoldIcon fontSize="small" />
      </Tool>
      <Tool label="Italic" active={on.italic} onClick={() => chain().toggleItalic().run()}>
        <FormatItalicIcon fontSize="small" />
      </Tool>
      <Tool label="Underline" active={on.underline} onClick={() => chain().toggleUnderline().run()}>
        <FormatUnderlinedIcon fontSize="small" />
      </Tool>
      <Tool
        label="Heading"
        active={on.heading}
        onClick={() => chain().toggleHeading({ level: 2 }).run()}
      >
        <TitleIcon fontSize="small" />
      </Tool>
      <Tool
        label="Bulleted list"
        active={on.bullets}
        onClick={() => chain().toggleBulletList().run()}
      >
        <FormatListBulletedIcon fontSize="small" />
      </Tool>
      <Tool
        label="Numbered list"
        active={on.numbers}
        onClick={() => chain().toggleOrderedList().run()}
      >
        <FormatListNumberedIcon fontSize="small" />
      </Tool>
      <Tool label="Link" active={on.link} onClick={link}>
        <LinkIcon fontSize="small" />
      </Tool>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool label="Undo" onClick={() => chain().undo().run()}>
        <UndoIcon fontSize="small" />
      </Tool>
      <Tool label="Redo" onClick={() => chain().redo().run()}>
        <RedoIcon fontSize="small" />
      </Tool>
    </Stack>
  );
}

/** The campaign body as formatted text; `onEditor` hands out the editor (merge fields go in it). */
export function RichTextEditor({
  html,
  onChange,
  onEditor,
  onFocus,
}: {
  html: string;
  onChange: (html: string) => void;
  onEditor: (editor: Editor | null) => void;
  onFocus: () => void;
}) {
  const editor = useEditor({
    extensions: editorExtensions,
    content: html,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Body',
        class: 'hearth-email-body',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
    onFocus,
  });
  useEffect(() => {
    onEditor(editor);
    return () => onEditor(null);
  }, [editor, onEditor]);
  if (!editor) return null;
  return (
    <Box
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        '&:focus-within': {
          borderColor: 'primary.main',
          boxShadow: '0 0 0 1px',
          color: 'primary.main',
        },
        '& .hearth-email-body': {
          color: 'text.primary',
          minHeight: 220,
          maxHeight: 520,
          overflowY: 'auto',
          px: 2,
          py: 1,
          outline: 'none',
          fontSize: 15,
          lineHeight: 1.5,
          '& p': { my: 1 },
          '& a': { color: 'primary.main' },
        },
      }}
    >
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </Box>
  );
}
