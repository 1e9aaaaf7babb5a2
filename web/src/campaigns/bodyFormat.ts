import { generateHTML, generateJSON } from '@tiptap/react';
import { editorExtensions } from './RichTextEditor';

/** HTML with the whitespace between tags dropped, the way a browser reads it. */
function normalized(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const blank: Node[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    if (!node.textContent?.trim()) blank.push(node);
  blank.forEach((node) => node.parentNode?.removeChild(node));
  return body.innerHTML.replace(/<p><\/p>/g, '');
}

/**
 * Whether the visual editor keeps this HTML as it is. A template pasted from elsewhere (inline
 * styles, tables, images) would lose what the editor has no place for, so it opens as HTML.
 */
export function visualEditorKeeps(html: string): boolean {
  if (!html.trim()) return true;
  const roundTrip = generateHTML(generateJSON(html, editorExtensions), editorExtensions);
  return normalized(roundTrip) === normalized(html);
}
