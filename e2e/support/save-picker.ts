import type { Page } from '@playwright/test';

/**
 * The browser's File System Access save picker, as a page sees it. Headless Chromium has the API but
 * no dialog a test can answer, so a spec takes one of two browsers: one without the picker (the
 * export falls back to the browser's own download, which Playwright sees), or one whose picker
 * answers at once with a file of the origin-private file system, which the spec then reads.
 */
export const withoutSavePicker = (page: Page) =>
  page.addInitScript(() => {
    Object.defineProperty(window, 'showSaveFilePicker', { value: undefined, configurable: true, writable: true });
  });

export const withPrivateFileSavePicker = (page: Page) =>
  page.addInitScript(() => {
    Object.defineProperty(window, 'showSaveFilePicker', {
      configurable: true,
      writable: true,
      value: async ({ suggestedName }: { suggestedName: string }) => {
        const dir = await navigator.storage.getDirectory();
        (window as unknown as { picked: string[] }).picked ??= [];
        (window as unknown as { picked: string[] }).picked.push(suggestedName);
        return dir.getFileHandle(suggestedName, { create: true });
      },
    });
  });

/** The names the picker was asked for, in order. */
export const pickedNames = (page: Page) =>
  page.evaluate(() => (window as unknown as { picked?: string[] }).picked ?? []);

/** A file of the origin-private file system as text, or null when there is none. */
export const savedFile = (page: Page, name: string) =>
  page.evaluate(async (fileName) => {
    const dir = await navigator.storage.getDirectory();
    try {
      return await (await (await dir.getFileHandle(fileName)).getFile()).text();
    } catch {
      return null;
    }
  }, name);
