import type { Page } from 'playwright-core';

export const MIN_TAP = 44;

/**
 * Every control on the page a finger can hit whose tap area is under 44 × 44 px (WCAG 2.5.5),
 * as "name widthxheight". The tap area of a checkbox or radio is the button that wraps it; a
 * link inside a sentence is exempt (WCAG's inline exception); hidden controls do not count.
 */
export function smallTapTargets(page: Page, min = MIN_TAP): Promise<string[]> {
  return page.evaluate((least) => {
    const selector = [
      'a[href]',
      'button',
      'input:not([type=hidden])',
      'select',
      'textarea',
      '[role=button]',
      '[role=checkbox]',
      '[role=combobox]',
      '[role=tab]',
      '[role=link]',
      '[role=menuitem]',
    ].join(',');
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      if (element.closest('[aria-hidden=true], [inert]')) continue;
      const input = element as HTMLInputElement;
      const wrapped =
        element.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio');
      // A finger hits the whole box of a text field (it focuses the input), and the label of a
      // checkbox or switch (it toggles it).
      const target =
        element.closest('label') ??
        element.closest('.MuiInputBase-root') ??
        (wrapped ? element.parentElement! : element);
      const box = target.getBoundingClientRect();
      // Not drawn, or parked off the screen until focused (the skip link).
      if (box.width === 0 || box.height === 0 || box.bottom <= 0 || box.right <= 0) continue;
      const inSentence =
        element.tagName === 'A' && style.display === 'inline' && !!element.closest('p');
      if (inSentence) continue;
      if (box.width < least || box.height < least) {
        const name =
          element.getAttribute('aria-label') ||
          (element.textContent ?? '').trim().slice(0, 40) ||
          element.getAttribute('name') ||
          element.tagName.toLowerCase();
        found.push(`${name} ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    return found;
  }, min);
}
