import type { Locator, Page } from '@playwright/test';
import postgres from 'postgres';

/** The database scripts/e2e-server.sh gives the product under test, for rows its write paths cannot make. */
export const e2eDatabase = (
  url = process.env.E2E_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/switchyard_e2e',
) =>
  postgres(url, {
    max: 1,
    onnotice: () => {},
  });

/**
 * Table cells on the page whose text does not show whole: text running past its cell's edge (over
 * the next column or out of the panel), or clipped by an element inside the cell. A value shortened
 * on purpose (a hash with its full value in its title) is whole text and passes.
 */
export const cutTableCells = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table')].flatMap((table) => {
      if (!table.getClientRects().length) return [];
      const caption = table.caption?.textContent ?? 'table';
      return [...table.querySelectorAll<HTMLElement>('th, td')].flatMap((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const text = range.getBoundingClientRect();
        const box = cell.getBoundingClientRect();
        // Headers kept for screen readers only (a 1 px clipped box), as stacked rows keep them.
        if (box.width <= 1) return [];
        const name = `${caption}: "${(cell.textContent ?? '').trim().slice(0, 60)}"`;
        if (text.width > 0 && (text.left < box.left - 1 || text.right > box.right + 1)) {
          return [`${name}: ${Math.round(text.width)} px of text in a ${Math.round(box.width)} px cell`];
        }
        const clipped = [...cell.querySelectorAll<HTMLElement>('*')].find(
          (inner) => inner.scrollWidth > inner.clientWidth + 1 && getComputedStyle(inner).overflowX !== 'visible',
        );
        return clipped ? [`${name}: clipped by its ${clipped.tagName.toLowerCase()}`] : [];
      });
    }),
  );

/** Whether `inner` lies within `outer`'s box sideways (a message inside its panel). */
export async function liesWithin(inner: Locator, outer: Locator) {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  return !!a && !!b && a.x >= b.x - 1 && a.x + a.width <= b.x + b.width + 1;
}

/**
 * What makes the page scroll sideways: the innermost elements reaching past the right edge of the
 * screen, or whose content does, outside any scroller, each as its tag, class and text.
 */
export const pastTheScreen = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element: Element) => {
      for (let at = element.parentElement; at && at !== document.body; at = at.parentElement) {
        if (getComputedStyle(at).overflowX !== 'visible') return true;
      }
      return false;
    };
    // An element's text may run past its own box (a figure wider than its card): its scroll width says so.
    const right = (element: Element) => {
      const box = element.getBoundingClientRect();
      return Math.max(box.right, box.left + element.scrollWidth);
    };
    const past = [...document.body.querySelectorAll('*')].filter(
      (element) => right(element) > width + 1 && !clipped(element),
    );
    return past
      .filter((element) => !past.some((other) => other !== element && element.contains(other)))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 40)}`);
  });
