// Service worker: a second visit downloads nothing. Versioned and content-hashed files are
// immutable, so they are served from the cache first (in Chromium by static routes, without
// this script; elsewhere by the fetch handler below); the page itself goes to the network
// first (so a new release is seen). A visit with no network gets the offline page, which says
// so and keeps the player's unfinished play for when it returns. /api is never cached.
const CACHE = "lottery-{{VERSION}}";
// `self` as what it is here (tsconfig.worker.json types both workers with the webworker lib).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const PRECACHE = ["{{PRECACHE}}"]; // the build writes the list of its files here

// URLPattern's special characters, taken literally in a precached path
const LITERAL = /[\\*?+:(){}]/g;

sw.addEventListener("install", (event) => {
  event.waitUntil(
    Promise.all([
      caches
        .open(CACHE)
        .then((cache) => cache.addAll(PRECACHE))
        .then(() => sw.skipWaiting()),
      routeToCache(event),
    ]),
  );
});

/**
 * The precached files straight from this release's cache, without waking this script for each
 * request (the Static Routing API; Chromium 123 and later): a returning visit's scripts and
 * WebAssembly were 56-143 ms in its fetch handler (docs/changelog.md). A file missing from
 * the cache goes to the network, as the fetch handler's would. Browsers without it, or without
 * a part of it, keep the fetch handler below.
 * @param {ExtendableEvent & {addRoutes?: (rules: object) => Promise<void>}} event
 */
function routeToCache(event) {
  if (!event.addRoutes) return Promise.resolve();
  const paths = PRECACHE.map((path) => ({ urlPattern: path.replace(LITERAL, "\\$&") }));
  return event
    .addRoutes({ condition: { or: paths }, source: { cacheName: CACHE } })
    .catch((error) => console.warn("service worker routes not added:", error));
}

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      // Older releases' files go; the page's Python snapshot (app.js) keys itself by release.
      .then((keys) =>
        Promise.all(
          keys
            .filter(
              (k) => k.startsWith("lottery-") && k !== CACHE && k !== "lottery-python-snapshot",
            )
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (
    event.request.method !== "GET" ||
    url.origin !== location.origin ||
    url.pathname.startsWith("/api/")
  )
    return;
  if (event.request.mode === "navigate") {
    // offline: the offline page (precached with the release; a network error if it is not)
    event.respondWith(
      fetch(event.request).catch(() =>
        caches.match("/offline.html").then((hit) => hit || Response.error()),
      ),
    );
    return;
  }
  event.respondWith(
    caches.match(event.request, { ignoreSearch: true }).then(
      (hit) =>
        hit ||
        fetch(event.request).then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(event.request, copy));
          }
          return response;
        }),
    ),
  );
});
