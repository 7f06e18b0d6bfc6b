import type { Locator, Page } from '@playwright/test';

/**
 * A mouse drag in steps, as a person drags: the page's native drag and drop (react-aria's
 * useDrag / DropZone) sees dragstart, dragover and drop.
 */
export async function dragOnto(page: Page, source: Locator, target: Locator, at: 'top' | 'end' = 'top'): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  await source.scrollIntoViewIfNeeded();
  const from = (await source.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + 6, from.y + Math.min(from.height / 2, 12));
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, at === 'end' ? to.y + to.height - 12 : to.y + Math.min(to.height / 2, 40), { steps: 8 });
  await page.mouse.up();
}
