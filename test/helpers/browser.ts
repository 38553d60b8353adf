import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's Chromium (installed by .ci/run), with the flags that work headless in a container. */
export const CHROMIUM = process.env["SPATIALPROBE_CHROMIUM"] ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/** Screenshots of the browser tests are kept here (CI artifacts; ignored by git). */
export const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts");
export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}

/** A page at `url`, once `selector` shows, that records script errors and dialogs (an executed payload would show up here too). */
export async function openRecordedPage(browser: Browser, url: string, selector: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url);
  await page.waitForSelector(selector);
  return { page, problems };
}
