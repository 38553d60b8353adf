/**
 * How fast the self-contained HTML report opens in headless Chromium (issue 15, the size budget).
 *
 *   node --import tsx bench/report-load.ts <report.html | run folder | folder of runs>... [--loads 3]
 *
 * Run folders are first made into one report with the default options (report --format html).
 * For each file: its size, and the median over the loads of the time from navigation start to
 * the first contentful paint (the contents and runs table showing), to an interactive gallery
 * (the viewer script has read the page's data and drawn the gallery's first page: filters, sort,
 * search and item views work), and to the gallery's first picture (the report's pictures follow
 * the script in the file and are filled in once the browser has read them),
 * each read inside the page (performance.now() from a MutationObserver installed before any
 * script runs). Prints figures only; no assertion on time.
 */
import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_HTML_OPTIONS, htmlReport } from "../src/report/html-report.js";
import { launchBrowser } from "../test/helpers/browser.js";
import { makeTempDir, table } from "./lib/common.js";

function loadsArg(): number {
  const i = process.argv.indexOf("--loads");
  const v = i >= 0 ? Number(process.argv[i + 1]) : 3;
  if (!Number.isInteger(v) || v < 1) throw new Error("--loads must be a positive integer");
  return v;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Installed before the page's own scripts: the moment the first gallery card appears. */
const WATCH_GALLERY = `(() => {
  const seen = () => {
    if (!window.__galleryAt && document.getElementById("page-info")?.textContent) window.__galleryAt = performance.now();
    if (!window.__picturesAt && document.querySelector("#grid .card img")) window.__picturesAt = performance.now();
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();`;

async function main(): Promise<void> {
  const loads = loadsArg();
  const inputs = process.argv.slice(2).filter((a, i, all) => a !== "--loads" && all[i - 1] !== "--loads");
  if (inputs.length === 0) throw new Error("usage: bench/report-load.ts <report.html | run folder>... [--loads 3]");
  const files: string[] = inputs.filter((input) => input.endsWith(".html"));
  const folders = inputs.filter((input) => !input.endsWith(".html"));
  if (folders.length > 0) {
    const started = performance.now();
    const { html, summary } = await htmlReport(folders, DEFAULT_HTML_OPTIONS);
    const file = path.join(makeTempDir("report-load"), "report.html");
    writeFileSync(file, html);
    console.log(`built ${file} from ${folders.length} input(s) in ${((performance.now() - started) / 1000).toFixed(1)} s: pictures for ${summary.pictured} of ${summary.total} items`);
    files.push(file);
  }
  const browser = await launchBrowser();
  const rows: string[][] = [];
  try {
    for (const file of files) {
      const paint: number[] = [];
      const gallery: number[] = [];
      const pictures: number[] = [];
      for (let k = 0; k < loads; k++) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
        await page.addInitScript(WATCH_GALLERY);
        await page.goto(`file://${path.resolve(file)}`, { waitUntil: "load", timeout: 120_000 });
        await page.waitForFunction(() => (window as unknown as { __galleryAt?: number }).__galleryAt !== undefined, null, { timeout: 120_000 });
        const times = await page.evaluate(() => ({
          paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
          gallery: (window as unknown as { __galleryAt: number }).__galleryAt,
          pictures: (window as unknown as { __picturesAt?: number }).__picturesAt ?? NaN,
        }));
        paint.push(times.paint);
        gallery.push(times.gallery);
        pictures.push(times.pictures);
        await page.close();
      }
      rows.push([path.basename(path.dirname(path.resolve(file))) + "/" + path.basename(file), (statSync(file).size / 1024 / 1024).toFixed(1), median(paint).toFixed(0), median(gallery).toFixed(0), pictures.some(Number.isNaN) ? "–" : median(pictures).toFixed(0)]);
    }
  } finally {
    await browser.close();
  }
  console.log(`median of ${loads} load${loads === 1 ? "" : "s"} in headless Chromium (file:// URL)`);
  console.log(table(["report", "MB", "first paint (ms)", "gallery ready (ms)", "first picture (ms)"], rows));
}

await main();
