// Service worker: a second visit downloads nothing. Versioned and content-hashed files are
// immutable, so they are served from the cache first; the page itself goes to the network
// first (so a new release is seen) and falls back to the cache offline. /api is never cached.
const CACHE = "lottery-{{VERSION}}";
const PRECACHE = {{PRECACHE}};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      // Older releases' files go; the page's Python snapshot (app.js) keys itself by release.
      .then((keys) => Promise.all(keys
        .filter((k) => k.startsWith("lottery-") && k !== CACHE && k !== "lottery-python-snapshot")
        .map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (event.request.mode === "navigate") {
    event.respondWith(
      fetch(event.request)
        .then((response) => {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put("/", copy));
          return response;
        })
        .catch(() => caches.match("/")),
    );
    return;
  }
  event.respondWith(
    caches.match(event.request, { ignoreSearch: true }).then((hit) => hit || fetch(event.request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(event.request, copy));
      }
      return response;
    })),
  );
});
