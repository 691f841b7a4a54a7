/**
 * A small folder ('shop') for the specs that bring an embedding model (embed-model.spec.ts,
 * embed-webgpu.spec.ts): its files, opening it through the folder picker in Semantic mode, and
 * asking a question.
 */
import type { Page } from '@playwright/test';
import { expect } from '../fixtures';
import type { QuarryPage } from '../pages/quarry-page';

export const SHOP_FILES: Record<string, string> = {
  'src/finder.ts':
    '// the code search finder\nexport function findCode(query: string) {\n  return search(query);\n}\n',
  'src/greet.ts': '/** Says hello, world! */\nexport function helloWorld() {\n  return "hello";\n}\n',
  'src/csv.ts':
    '/** Splits comma separated text into rows. */\nexport function parseCsv(text: string) {\n  return text.split(",");\n}\n',
};

/** The OPFS folder 'shop' opened with the folder picker, indexed, in Semantic mode with no question yet. */
export async function openShop(quarry: QuarryPage, page: Page): Promise<void> {
  // the page starts empty (quarry.gotoEmpty)
  await expect(page.getByTestId('home')).toBeVisible();
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('shop');
  await quarry.waitForIndex();
  await quarry.mode('Semantic').check();
  await expect(page.getByTestId('embed-model')).toBeVisible();
}

/** Asks a question and waits for the answer: the label names the model that answered. */
export async function answeredBy(quarry: QuarryPage, page: Page, question: string): Promise<string | null> {
  await quarry.searchBox.fill(question);
  await expect(quarry.semanticHits.first()).toBeVisible({ timeout: 90_000 });
  return page.getByTestId('semantic-model').getAttribute('data-model');
}
