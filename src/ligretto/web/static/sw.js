// The Tafel's service worker: the board, its assets and the game's state
// keep working on the phone when the network is gone.
//
// - Static files (/static/…, addressed with their version): from the cache,
//   fetched once.
// - The Tafel's pages (/, /g/{id}, /g/{id}/edit, its rounds and history):
//   from the network; a copy is kept (without the query) and answered when
//   the network fails, so a reload at a table without signal shows the
//   board as last seen, and the page's script adds what waits to be sent.
// - A round's correction page (/g/{id}/edit/rounds/{n}): from the network;
//   without one, the kept board of the game answers, and its script draws
//   the correction from the phone's copy of the game (never an old copy of
//   the page, whose numbers may be stale).
// - GET /api/games/{id}: the same, network first.
// A Tafel page that is not kept answers, without a network, with a short
// page that says so and leads to the board, never the browser's error page.
// Nothing else is touched: writes, live events, online play.
const CACHE = "tafel-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

const PAGE = /^\/(?:$|g\/[\w-]+(?:\/edit(?:\/history)?|\/history)?$)/;
const CORRECTION = /^\/g\/([\w-]+)\/edit\/rounds\/\d+$/;
const GAME = /^\/g\/([\w-]+)\//;
const STATE = /^\/api\/games\/[\w-]+$/;

function pageKey(url) {
  return new Request(url.origin + url.pathname);
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}

// Without a network: the game's kept board for a correction, else a page
// that says this one is not kept (in the language the board was seen in).
async function offlinePage(url) {
  const cache = await caches.open(CACHE);
  const correction = CORRECTION.exec(url.pathname);
  if (correction) {
    const board = await cache.match(`${url.origin}/g/${correction[1]}/edit`);
    if (board) return board;
  }
  const game = GAME.exec(url.pathname);
  const kept = await cache.match(`${url.origin}/offline`);
  const back = game ? `/g/${game[1]}/edit` : "/";
  if (kept) {
    const html = (await kept.text()).replaceAll('href="/" data-back', `href="${back}" data-back`);
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  return new Response(`<!doctype html><meta name="viewport" content="width=device-width"><title>Offline</title><p>Offline. <a href="${back}">Back</a></p>`, {
    status: 503, headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

async function page(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && PAGE.test(url.pathname)) await cache.put(pageKey(url), response.clone());
    return response;
  } catch {
    if (PAGE.test(url.pathname)) {
      const kept = await cache.match(pageKey(url));
      if (kept) return kept;
    }
    return offlinePage(url);
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && (url.pathname === "/" || url.pathname.startsWith("/g/"))) {
    event.respondWith(page(request, url));
  } else if (STATE.test(url.pathname)) {
    event.respondWith(networkFirst(request, pageKey(url)));
  }
});

// A page asks to keep what it needs offline (its own address, its scripts
// and styles, every module of its import map, the offline board's
// static/js/offline/ among them, the images of its <template> pieces, the
// game's state), also on its first visit, before this worker controlled it.
self.addEventListener("message", (event) => {
  const urls = event.data && event.data.keep;
  if (!Array.isArray(urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(urls.map(async (address) => {
      const url = new URL(address, self.location.origin);
      if (url.origin !== self.location.origin) return;
      const key = url.pathname.startsWith("/static/") ? new Request(url.href) : pageKey(url);
      try {
        const response = await fetch(url.href, { credentials: "same-origin" });
        if (response.ok) await cache.put(key, response);
      } catch {
        // Offline already: whatever is kept stays.
      }
    }));
  })());
});
