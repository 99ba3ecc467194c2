/**
 * The pages of a long timeline after the first, packed (docs/decisions/0235): each page's markup,
 * gzip-compressed and base64-encoded by the shell, sits in a data block (a `<script>` of a type no
 * browser runs, read as plain text and never built into the document) inside a closed
 * `<details class="page packed">`. The one script below unpacks a page when it is opened, and when a
 * link or the address names a call on a page not yet open. The Content-Security-Policy allows this
 * script by its hash and nothing else.
 */

/** The type of a packed page's data block. */
export const PACKED_PAGE_TYPE = "application/x-cua-report-page";

/** Timelines longer than this many calls are packed after their first page (when the shell can pack). */
export const PACK_AFTER = 2000;

export const PACKED_PAGES_SCRIPT = `(() => {
  const type = "${PACKED_PAGE_TYPE}";
  const unpack = async (page) => {
    const data = page.querySelector('script[type="' + type + '"]');
    if (!data) return;
    data.remove();
    try {
      const bytes = Uint8Array.from(atob(data.textContent), (c) => c.charCodeAt(0));
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      page.insertAdjacentHTML("beforeend", await new Response(stream).text());
    } catch (error) {
      const note = document.createElement("p");
      note.className = "note";
      note.textContent = "This page could not be unpacked: " + error;
      page.append(note);
    }
  };
  document.addEventListener("toggle", (event) => {
    const page = event.target;
    if (page instanceof HTMLDetailsElement && page.classList.contains("packed") && page.open) unpack(page);
  }, true);
  const reveal = async () => {
    let id;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch {
      return;
    }
    if (!id || document.getElementById(id)) return;
    for (const page of document.querySelectorAll("details.page.packed")) {
      if (!page.dataset.ids.split(" ").includes(id)) continue;
      page.open = true;
      await unpack(page);
      location.replace("#" + encodeURIComponent(id));
      document.getElementById(id)?.scrollIntoView();
      return;
    }
  };
  addEventListener("hashchange", reveal);
  reveal();
})();`;

/** The CSP source that allows PACKED_PAGES_SCRIPT: its SHA-256, checked by render-report.test.ts. */
export const PACKED_PAGES_SCRIPT_HASH = "'sha256-LOZKczg3ALvo/4zx9pBgxR23bp7FWhJRdOKLvsTegrs='";

/** Added to the stylesheet of a report with packed pages. */
export const PACKED_PAGES_CSS = `details.page.packed { margin:6px 0; }
details.page.packed > summary { cursor:pointer; padding:8px 12px; background:var(--card); border:1px solid var(--line); border-radius:6px; color:var(--muted); }
details.page.packed[open] > summary { margin-bottom:4px; }`;
