import sanitizeHtml from 'sanitize-html';

/** HTML kept on the timeline at most (a longer message keeps its text body whole). */
const MAX_HTML = 512 * 1024;

/**
 * An email's HTML as the timeline may show it: formatting and links only. No script, style,
 * form or frame, no event handler, no image (remote images are trackers), links to http(s) and
 * mailto only, opened away from Hearth.
 */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html.slice(0, MAX_HTML), {
    allowedTags: [
      'a',
      'b',
      'blockquote',
      'br',
      'code',
      'div',
      'em',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'hr',
      'i',
      'li',
      'ol',
      'p',
      'pre',
      'span',
      'strong',
      'sub',
      'sup',
      'table',
      'tbody',
      'td',
      'tfoot',
      'th',
      'thead',
      'tr',
      'u',
      'ul',
    ],
    allowedAttributes: { a: ['href'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', {
        rel: 'noopener noreferrer nofollow',
        target: '_blank',
      }),
    },
    disallowedTagsMode: 'discard',
  });
}
