// The table pages' few scripts; every page reads fine without them.
// 1. Times in the reader's own time zone and language.
// 2. A live table: a server-sent event says the table changed; the page fetches itself
//    and swaps its content, without reloading.
// 3. A replay: the arrow keys (and Home, End) step through the moves.
"use strict";

function localTimes(root) {
  const lang = document.documentElement.lang || undefined;
  for (const el of root.querySelectorAll("time[data-local]")) {
    const when = new Date(el.getAttribute("datetime"));
    if (!isNaN(when)) {
      el.textContent = when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      el.title = el.getAttribute("datetime");
    }
  }
}

function follow() {
  const main = document.querySelector("main[data-live]");
  if (!main || !window.EventSource) return;
  let etag = main.dataset.etag;
  const source = new EventSource(main.dataset.events + "?etag=" + encodeURIComponent(etag));
  let busy = false;
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const answer = await fetch(window.location.href, { headers: { Accept: "text/html" } });
      if (!answer.ok) return;
      const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
      const next = fresh.querySelector("main");
      const current = document.querySelector("main");
      if (!next || !current) return;
      // Keep the reader's place: the focused link by its address, and the scroll.
      const focused = current.contains(document.activeElement) ? document.activeElement : null;
      const href = focused && focused.getAttribute("href");
      current.replaceWith(next);
      if (href) {
        const again = next.querySelector('[href="' + CSS.escape(href) + '"]');
        if (again) again.focus({ preventScroll: true });
      }
      document.title = fresh.title;
      localTimes(next);
      const status = next.querySelector("[data-updated]");
      if (status) status.textContent = status.dataset.updated;
      etag = next.dataset.etag;
      if (!next.dataset.live) source.close();
    } finally {
      busy = false;
    }
  }
  source.addEventListener("change", (event) => { if (event.data !== etag) refresh(); });
}

function steps() {
  if (!document.querySelector("main[data-replay]")) return;
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const link = document.querySelector('.steps a[data-key="' + event.key + '"]');
    if (link) {
      event.preventDefault();
      window.location.assign(link.href);
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes(document);
  follow();
  steps();
});
