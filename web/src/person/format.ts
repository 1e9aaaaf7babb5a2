/** Display helpers shared by the person page and My day. */
export function when(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function day(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '';
  const date = new Date(iso.length === 10 ? `${iso}T12:00:00` : iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

export function money(value: unknown): string {
  if (typeof value !== 'number') return '';
  return value.toLocaleString(undefined, {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  });
}

/** HTML bodies (emails, notes) shown as text: parsed inertly, never inserted as markup. */
export function plainText(body: unknown, isHtml: unknown): string {
  const text = typeof body === 'string' ? body : '';
  if (!isHtml) return text;
  const doc = new DOMParser().parseFromString(text, 'text/html');
  doc.querySelectorAll('script, style').forEach((element) => element.remove());
  return doc.body.textContent ?? '';
}

export function seconds(value: unknown): string {
  if (typeof value !== 'number' || value <= 0) return '';
  const minutes = Math.floor(value / 60);
  return minutes ? `${minutes} min ${value % 60} s` : `${value} s`;
}
