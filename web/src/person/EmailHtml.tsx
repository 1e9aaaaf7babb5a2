import { useEffect, useMemo, useRef, useState } from 'react';
import { Box } from '@mui/material';

/**
 * What the frame may do: nothing runs in it (no allow-scripts), so a script or an onerror that
 * got past the server's sanitising stays inert; same-origin only lets this page measure its
 * height; links open in a new tab.
 */
const SANDBOX = 'allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/** Loads nothing from anywhere (remote images are trackers), styles only from the message. */
const FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const FRAME_STYLE =
  'body{margin:0;display:flow-root;font:14px/1.5 Roboto,Helvetica,Arial,sans-serif;color:rgba(0,0,0,.87);' +
  'overflow-wrap:anywhere}body>:first-child{margin-top:0}body>:last-child{margin-bottom:0}' +
  'a{color:#1565c0}img{display:none}table{max-width:100%}' +
  'blockquote{margin:0 0 0 8px;padding-left:8px;border-left:2px solid #ccc;color:#555}';

/**
 * The message as a document of its own: parsed inertly (DOMParser runs and loads nothing),
 * scripts and active elements dropped, every link opening a new tab without an opener.
 */
export function emailDocument(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc
    .querySelectorAll('script, iframe, frame, object, embed, form, base, meta, link')
    .forEach((element) => element.remove());
  for (const link of doc.querySelectorAll('a')) {
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  }
  return (
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">` +
    `<style>${FRAME_STYLE}</style></head><body>${doc.body.innerHTML}</body></html>`
  );
}

/** An email's HTML in a sandboxed frame as tall as its content. */
export function EmailHtml({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(40);
  const srcDoc = useMemo(() => emailDocument(html), [html]);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let observer: ResizeObserver | undefined;
    const fit = () => {
      const body = element.contentDocument?.body;
      if (!body) return;
      setHeight(Math.ceil(body.getBoundingClientRect().height) + 2);
      observer?.disconnect();
      observer = new ResizeObserver(() =>
        setHeight(Math.ceil(body.getBoundingClientRect().height) + 2),
      );
      observer.observe(body);
    };
    element.addEventListener('load', fit);
    fit();
    return () => {
      element.removeEventListener('load', fit);
      observer?.disconnect();
    };
  }, [srcDoc]);

  return (
    <Box
      component="iframe"
      ref={frame}
      title={title}
      sandbox={SANDBOX}
      srcDoc={srcDoc}
      sx={{ display: 'block', width: '100%', height, border: 0, mt: 0.5 }}
    />
  );
}
