import { chromium, type BrowserContext } from "playwright-core";
import { chromiumPath } from "./system-packages.js";

/** Flags for Debian's chromium run headless on a shared machine (no GPU, no sandbox, no network of its own). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A headless Chromium (the system's, driven by playwright-core: no download) with its profile in `profileDir`. */
export async function launchReportBrowser(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    ...(await chromiumPath().then((p) => (p ? { executablePath: p } : {}))),
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
  });
}
