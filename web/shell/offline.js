// The page sw.js serves when a visit finds no network. It names the unfinished plays this
// device keeps (the shell's "lottery.progress.<game>" in localStorage, never changed here) and
// goes back to the games when the connection returns, where each play resumes where it stopped.
function unfinished() {
  const kept = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key?.startsWith("lottery.progress.")) continue;
      const progress = JSON.parse(localStorage.getItem(key) || "null");
      if (progress && Number.isInteger(progress.play_number)) kept.push(progress.play_number);
    }
  } catch {
    // storage that cannot be read keeps nothing to name; the endpoint keeps the plays too
  }
  return kept.sort((a, b) => a - b);
}

function back() {
  location.replace("/" + location.search);
}

// Whether the site answers again. A HEAD request is not the service worker's (it answers GETs
// only), so this asks the network itself; the browser's "online" alone is not proof (it fires
// while a network is still coming up, and on networks that reach nothing).
function probe() {
  fetch("/", { method: "HEAD", cache: "no-store" })
    .then((answer) => {
      if (answer.ok) back();
    })
    .catch(() => {});
}

/**
 * An element of offline.html, by its id (the page is ours: a missing one is a bug).
 * @param {string} id
 */
function element(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`offline.html has no #${id}`);
  return found;
}

const plays = unfinished();
if (plays.length > 0) {
  const kept = element("kept");
  const numbers = plays.map((n) => `Play Number ${n}`).join(" and ");
  kept.textContent =
    plays.length === 1
      ? `Your unfinished play (${numbers}) is kept: it carries on where you left it when you are back online. Nothing is lost.`
      : `Your unfinished plays (${numbers}) are kept: they carry on where you left them when you are back online. Nothing is lost.`;
  kept.hidden = false;
}
element("retry").addEventListener("click", back);
window.addEventListener("online", probe);
setInterval(probe, 5000);
