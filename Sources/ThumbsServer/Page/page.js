// The page `thumbs serve` answers at `/`: the library as days of square thumbnails, the albums
// beside it, kept live. Plain JavaScript, no build step and no dependency; it calls the JSON API
// of docs/HTTP.md with URLs relative to the page, so a proxy may mount it under any path.
"use strict";

const HEADER = 40; // a day's title row, in CSS pixels
const GAP = 2; // between cells and around the grid
const LARGEST_CELL = 180; // cells are at most this wide: as many columns as that allows
const PAGE = 1000; // assets per listing request, the API's limit
const POLL_MS = 1500; // how often to ask for changes

const $ = (id) => document.getElementById(id);
const scroller = $("scroller"), grid = $("grid"), statsView = $("stats"), status = $("status");

// Decoded placeholders as PNG data URLs, the newest few thousand kept: a cell scrolled back into
// view repaints without decoding again, and a library of any size stays bounded in memory.
const placeholders = new Map();
function placeholderURL(base64) {
  if (placeholders.has(base64)) return placeholders.get(base64);
  let url = null; // what is not a ThumbHash leaves the cell plain until its image arrives
  try {
    const bytes = Uint8Array.from(atob(base64.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    if (bytes.length >= 5) {
      const { w, h, rgba } = thumbHashToRGBA(bytes), canvas = document.createElement("canvas");
      Object.assign(canvas, { width: w, height: h }).getContext("2d").putImageData(new ImageData(rgba, w, h), 0, 0);
      url = canvas.toDataURL();
    }
  } catch {}
  if (placeholders.size >= 3000) placeholders.delete(placeholders.keys().next().value);
  placeholders.set(base64, url);
  return url;
}

// What the page shows: the overlay's numbers, also on window.thumbsStats for tests and scripts.
const stats = { blank: 0, shown: 0, inFlight: 0, count: 0, loaded: 0, failed: 0, preheated: 0, preheatRequests: 0 };
window.thumbsStats = stats;
const model = {
  rendition: null, // {name, width, height, ...}: the one the grid asks for
  view: { kind: "library" }, // or {kind: "album", id, title}, or {kind: "burst", id (a frame's), title}
  sections: [], // [{key, title, ids}] in display order
  assets: new Map(), // id → asset, as the listings and the changes report it
  changeToken: null, // where polling resumes; null while a listing is loading
  generation: 0, // bumped by each listing, so that answers to an older one are dropped
};
let layout = null; // {columns, cell, count, rows: [{top, height, section, start (-1: the header)}]}
const nodes = new Map(); // cell elements by asset id, day headers by "day:" + key
const pending = new Set(); // images asked for whose first part has not arrived
const preheated = new Set(); // ids the server was asked to cache, as startCaching would
let preheatMiddle = null; // the viewport's middle when the preheat set was last computed
let fetching = 0;

// A JSON request; an error status throws, with the API's message and the status.
async function request(url, init = {}) {
  fetching++, showStats();
  try {
    const response = await fetch(url, { credentials: "same-origin", ...init }), text = await response.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch {}
    if (response.ok) return body;
    const error = new Error(body?.message ?? `${url}: HTTP ${response.status}`);
    throw Object.assign(error, { status: response.status, kind: body?.error });
  } finally {
    fetching--, showStats();
  }
}

function setStatus(text, isError = false) {
  status.textContent = text;
  status.classList.toggle("error", isError);
}
const report = (error) => setStatus(error.message || String(error), true);

// Calls fn at the next frame, once however often it is asked before then.
function onNextFrame(fn) {
  let frame = 0;
  return () => (frame ||= requestAnimationFrame(() => ((frame = 0), fn())));
}

function make(tag, className, ...children) {
  const element = Object.assign(document.createElement(tag), { className });
  element.append(...children);
  return element;
}

// Layout: day headers and rows of square cells, every position computed from the lists, so that
// only what is near the viewport needs elements, for ten photos or a hundred thousand.
function relayout(mark = anchor()) {
  const width = scroller.clientWidth;
  const columns = Math.max(2, Math.ceil((width - GAP) / (LARGEST_CELL + GAP)));
  const cell = Math.max(1, Math.floor((width - GAP) / columns) - GAP);
  const rows = [];
  let top = 0, count = 0;
  for (const section of model.sections) {
    rows.push({ top, height: HEADER, section, start: -1 });
    section.top = top += HEADER;
    for (let start = 0; start < section.ids.length; start += columns, top += cell + GAP)
      rows.push({ top, height: cell + GAP, section, start });
    count += section.ids.length;
  }
  layout = { columns, cell, count, rows };
  grid.style.height = `${top + GAP}px`;
  // Back to the anchored row: after a change the same photos stay at the same place on screen.
  for (const id of mark?.ids ?? []) {
    const section = model.sections.find((s) => s.ids.includes(id));
    if (!section) continue;
    scroller.scrollTop = section.top + Math.floor(section.ids.indexOf(id) / columns) * (cell + GAP) - mark.offset;
    break;
  }
  preheatMiddle = null; // the geometry changed: the preheat set is computed afresh
  render();
}

// The first visible row's ids and its offset from the top of the view. None at the very top:
// the view stays at the top, where new photos arrive.
function anchor() {
  const top = scroller.scrollTop;
  if (!layout || top <= 0) return null;
  for (const [row, ids] of rowsIn(top, Infinity)) if (ids.length) return { ids, offset: row.top - top };
  return null;
}

// The index of the last row starting at or above y.
function rowAt(y) {
  let low = 0, high = layout.rows.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    layout.rows[middle].top <= y ? (low = middle) : (high = middle - 1);
  }
  return low;
}

// The rows that touch [from, to), each with the ids it holds.
function* rowsIn(from, to) {
  for (let r = rowAt(from); r < layout.rows.length && layout.rows[r].top < to; r++) {
    const row = layout.rows[r];
    if (row.top + row.height > from) yield [row, row.start < 0 ? [] : row.section.ids.slice(row.start, row.start + layout.columns)];
  }
}

// Puts in the DOM the rows that the viewport shows plus one row either side, and nothing else.
function render() {
  if (!layout) return;
  const top = scroller.scrollTop, { cell } = layout, keep = new Set();
  const node = (key, className) => {
    if (!nodes.has(key)) nodes.set(key, grid.appendChild(make("div", className)));
    keep.add(key);
    return nodes.get(key);
  };
  for (const [row, ids] of rowsIn(top - cell, top + scroller.clientHeight + cell)) {
    if (row.start < 0) {
      const header = node(`day:${row.section.key}`, "day"), count = row.section.count ?? row.section.ids.length;
      const label = `${count} ${count === 1 ? "item" : "items"}`;
      header.style.cssText = `top:${row.top}px;height:${HEADER}px`;
      if (header.textContent !== row.section.title + label)
        header.replaceChildren(make("span", "title", row.section.title), make("span", "count", label));
    }
    ids.forEach((id, column) => {
      const element = node(id, "cell"), x = GAP + column * (cell + GAP), y = row.top + GAP;
      if (element.cellTop !== y || element.cellLeft !== x || element.cellSize !== cell) {
        Object.assign(element, { cellTop: y, cellLeft: x, cellSize: cell }).dataset.id = id;
        element.style.transform = `translate(${x}px, ${y}px)`;
        element.style.width = element.style.height = `${cell}px`;
      }
      fill(element, model.assets.get(id));
    });
  }
  for (const [key, element] of nodes) {
    if (keep.has(key)) continue;
    dropImage(element);
    stopMotion(element);
    element.remove();
    nodes.delete(key);
  }
  updatePreheat();
  showStats();
}

// A cell's content: the ThumbHash first, then the thumbnail over it. The multipart answer to
// `delivery=opportunistic` replaces a degraded image with the final one in the same <img>. The
// data attributes record when each was there, for the browser test to check their order.
function fill(element, asset) {
  if (asset) markBurst(element, asset);
  const version = String(asset?.version ?? "");
  if (!asset || element.dataset.version === version) return; // details not loaded yet, or done
  dropImage(element);
  stopMotion(element);
  Object.assign(element.dataset, { version, placeholderPainted: "0" });
  ["imageLoaded", "placeholderAt"].forEach((key) => delete element.dataset[key]);
  element.title = asset.name;
  element.classList.toggle("video", Boolean(asset.isVideo));
  element.classList.toggle("live", Boolean(asset.motion));
  element.classList.toggle("hdr", (asset.mediaSubtypes ?? []).includes("hdr"));
  element.classList.remove("failed");
  const placeholder = asset.placeholder ? placeholderURL(asset.placeholder) : null;
  element.style.backgroundImage = placeholder ? `url("${placeholder}")` : "";
  if (placeholder) Object.assign(element.dataset, { placeholderPainted: "1", placeholderAt: performance.now() });
  const image = Object.assign(new Image(), { alt: "", decoding: "async", draggable: false });
  // `load` comes once, with the first part; later parts replace the pixels without an event.
  image.addEventListener("load", () => {
    if (pending.delete(image)) stats.loaded++;
    element.dataset.imageLoaded ??= "1";
    element.dataset.imageAt ??= performance.now();
    showStats();
  });
  // A server with too many renders waiting answers 503, and an image cannot tell one error from
  // another: it asks again twice, later, before the cell shows it failed.
  const enc = encodeURIComponent, retries = [2000, 5000];
  const url = `thumbnails/${enc(asset.id)}/${enc(model.rendition.name)}?v=${enc(asset.version)}&delivery=opportunistic`;
  image.addEventListener("error", () => {
    if (!image.hasAttribute("src")) return; // dropped on purpose
    if (retries.length) return setTimeout(() => image.isConnected && (image.src = `${url}&retry=${retries.length}`), retries.shift());
    if (pending.delete(image)) stats.failed++;
    element.classList.add("failed");
    showStats();
  });
  pending.add(image);
  image.src = url;
  element.append(image);
}

// A burst is one cell, the frame that stands for it, with a stack badge and its count; among the
// burst's own frames it is a frame like the others.
function markBurst(element, asset) {
  const count = asset.burst?.count ?? 0, shown = count > 0 && model.view.kind !== "burst";
  element.classList.toggle("burst", shown);
  if (shown) element.dataset.burstCount = count;
  else delete element.dataset.burstCount;
}

// A Live Photo plays its movie while the pointer is over it, as Photos does on a long press: a
// muted <video> over the still, asking the server for byte ranges as it plays; it is dropped on
// leaving, and the connection with it.
function playMotion(element) {
  const asset = model.assets.get(element.dataset.id);
  if (!asset?.motion || element.querySelector("video")) return;
  const video = Object.assign(document.createElement("video"), { muted: true, loop: true, playsInline: true });
  video.addEventListener("playing", () => (element.dataset.motionPlaying ??= "1"));
  video.src = asset.motion.url;
  element.append(video);
  video.play().catch(() => {}); // a pointer already gone: the video is being dropped
}
function stopMotion(element) {
  const video = element.querySelector("video");
  if (!video) return;
  video.removeAttribute("src");
  video.load();
  video.remove();
}

// Without a source the browser drops the image, and with it the still-open multipart answer:
// a cell scrolled away stops holding one of the few connections the page has to the server.
function dropImage(element) {
  const image = element.querySelector("img");
  if (!image) return;
  pending.delete(image);
  image.removeAttribute("src");
  image.remove();
  delete element.dataset.imageAt;
}

// Preheat by the rule of Apple's PhotoKit sample: the visible rect grown by half its height above
// and below, recomputed only once the view has moved by more than a third of its height; the
// assets that entered it are cached (POST), those that left it are let go (DELETE).
function updatePreheat() {
  if (!layout || !model.rendition) return;
  const top = scroller.scrollTop, height = scroller.clientHeight, middle = top + height / 2;
  if (preheatMiddle !== null && Math.abs(middle - preheatMiddle) <= height / 3) return;
  preheatMiddle = middle;
  const wanted = new Set();
  for (const [, ids] of rowsIn(top - height / 2, top + height * 1.5)) ids.forEach((id) => wanted.add(id));
  const entered = [...wanted].filter((id) => !preheated.has(id));
  const left = [...preheated].filter((id) => !wanted.has(id));
  left.forEach((id) => preheated.delete(id));
  entered.forEach((id) => preheated.add(id));
  sendPreheat("DELETE", left);
  sendPreheat("POST", entered);
}

// The server keeps each client's preheating apart by this name: one per page load, so that two
// tabs never stop each other's.
const client = `page-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
function sendPreheat(method, ids, init = {}) {
  if (!ids.length || !model.rendition) return;
  const body = JSON.stringify({ assets: ids, rendition: model.rendition.name });
  const headers = { "Content-Type": "application/json", "X-Thumbs-Client": client };
  stats.preheatRequests++;
  request("api/preheat", { method, body, headers, ...init }).catch(report);
}
// Leaving the page stops its preheating, as stopCachingImagesForAllAssets would; coming back to
// it (from the back/forward cache) starts afresh.
addEventListener("pagehide", () => {
  sendPreheat("DELETE", [...preheated], { keepalive: true });
  preheated.clear();
  preheatMiddle = null;
});
addEventListener("pageshow", () => updatePreheat());

const showStats = onNextFrame(() => {
  const top = scroller.scrollTop, bottom = top + scroller.clientHeight;
  let blank = 0, shown = 0;
  for (const element of nodes.values()) {
    if (!element.classList.contains("cell")) continue;
    if (element.dataset.imageLoaded) shown++;
    else if (element.cellTop + element.cellSize > top && element.cellTop < bottom) blank++;
  }
  const inFlight = fetching + pending.size, count = layout?.count ?? 0;
  Object.assign(stats, { blank, shown, inFlight, count, preheated: preheated.size });
  statsView.textContent = `blank cells  ${blank}\nimages shown ${shown}\nin flight    ${inFlight}\n${count} items`;
});

// Listings. The library's days come from /api/moments, page by page, each with its count and
// first photos; the rest of each day's photos follow from /api/assets page by page (the same
// order, newest first), and cells fill in as their page arrives. An album is one section, filled
// as its pages arrive. Listed again (keepScroll, after changes), the old lists stay on screen
// until the new ones are in, and the photos in view stay in view.
async function show(view, { keepScroll = false } = {}) {
  const generation = ++model.generation;
  Object.assign(model, { view, changeToken: null });
  markCurrent();
  if (!keepScroll) {
    model.sections = [];
    scroller.scrollTop = 0;
    relayout(null);
  }
  const publish = (sections) => {
    const mark = keepScroll ? anchor() : null;
    model.sections = sections;
    relayout(mark);
  };
  try {
    if (view.kind === "library") {
      const sections = [], days = new Map();
      const complete = await loadPages("api/moments", generation, (page) => {
        model.changeToken ??= page.changeToken;
        for (const moment of page.moments) {
          const section = { key: moment.day, title: moment.title, count: moment.count, ids: [...moment.assets] };
          sections.push(section);
          days.set(moment.day, { section, known: new Set(moment.assets) });
        }
      });
      if (!complete) return;
      if (!keepScroll) publish(sections);
      window.thumbsReady = true;
      const filled = await loadPages("api/assets", generation, (page) => {
        for (const asset of page.assets) {
          const day = days.get(asset.day);
          if (!day || day.known.has(asset.id)) continue;
          day.known.add(asset.id);
          day.section.ids.push(asset.id);
        }
        if (!keepScroll) relayout();
      });
      if (!filled) return;
      sections.forEach((section) => delete section.count);
      return keepScroll ? publish(sections) : relayout();
    }
    const section = { key: `${view.kind}:${view.id}`, title: view.title, ids: [] };
    const path = view.kind === "burst"
      ? `api/assets/${encodeURIComponent(view.id)}/burst`
      : `api/albums/${encodeURIComponent(view.id)}/assets`;
    const complete = await loadPages(path, generation, (page) => {
      model.changeToken ??= page.changeToken;
      section.ids.push(...page.assets.map((asset) => asset.id));
      if (!keepScroll) publish([section]);
    });
    if (complete && keepScroll) publish([section]);
    window.thumbsReady ||= complete;
  } catch (error) {
    // A burst whose cover has gone (its frames list under another frame now): back to the library.
    if (generation === model.generation && view.kind === "burst" && error.status === 404) return show({ kind: "library" });
    if (generation === model.generation) report(error);
  }
}

// A server configured for smaller pages refuses PAGE (400 bad-limit): then its default size.
let pageLimit = `&limit=${PAGE}`;
async function loadPages(path, generation, onPage) {
  for (let cursor = "", first = true; first || cursor; first = false) {
    const url = () => `${path}?cursor=${encodeURIComponent(cursor)}${pageLimit}`;
    const page = await request(url()).catch((error) => {
      if (error.kind !== "bad-limit" || !pageLimit) throw error;
      return request(url((pageLimit = "")));
    });
    if (generation !== model.generation) return false;
    page.assets?.forEach((asset) => model.assets.set(asset.id, asset));
    onPage?.(page);
    render();
    cursor = page.nextCursor;
  }
  return true;
}

// Live updates: the changes since the last token, applied to the lists in memory and laid out
// again in place. An expired token (410) means too much changed: the listing is fetched again.
async function poll() {
  const generation = model.generation, token = model.changeToken;
  try {
    if (token !== null) {
      const changes = await request(`api/changes?since=${encodeURIComponent(token)}`);
      if (generation === model.generation && token === model.changeToken) {
        model.changeToken = changes.changeToken;
        if (changes.removed.length || changes.inserted.length || changes.changed.length) apply(changes);
        if (status.classList.contains("error")) setStatus("");
      }
    }
  } catch (error) {
    if (error.status !== 410) report(error);
    else if (generation === model.generation) show(model.view, { keepScroll: true });
  }
  setTimeout(poll, POLL_MS);
}

function apply(changes) {
  const mark = anchor(), removed = new Set(changes.removed), moved = [...changes.inserted];
  removed.forEach((id) => model.assets.delete(id));
  changes.inserted.forEach((asset) => model.assets.set(asset.id, asset));
  for (const asset of changes.changed) {
    const before = model.assets.get(asset.id);
    model.assets.set(asset.id, asset);
    if (before && (before.day !== asset.day || before.date !== asset.date)) moved.push(asset);
  }
  loadCollections(); // their counts changed
  const library = model.view.kind === "library";
  // Which albums a new photo joins is the server's rule, not the page's: list the album again.
  if (!library && changes.inserted.length) show(model.view, { keepScroll: true });
  if (library) moved.forEach((asset) => removed.add(asset.id));
  for (const section of model.sections) {
    if (section.ids.some((id) => removed.has(id))) section.ids = section.ids.filter((id) => !removed.has(id));
  }
  if (library) {
    moved.forEach(place);
    model.sections = model.sections.filter((section) => section.ids.length > 0);
  }
  relayout(mark);
}

// Inserts an asset in its day (created if new), newest first, as the server orders them.
function place(asset) {
  let index = model.sections.findIndex((section) => section.key <= asset.day);
  if (index < 0) index = model.sections.length;
  if (model.sections[index]?.key !== asset.day) {
    const format = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
    const title = new Date(`${asset.day}T12:00:00Z`).toLocaleDateString("en-GB", format);
    model.sections.splice(index, 0, { key: asset.day, title, ids: [] });
  }
  const ids = model.sections[index].ids, time = Date.parse(asset.date);
  const at = ids.findIndex((id) => Date.parse(model.assets.get(id)?.date) < time);
  ids.splice(at < 0 ? ids.length : at, 0, asset.id);
}

// The side list: the library, then every album with its count.
async function loadCollections() {
  try {
    const albums = [];
    for (let cursor = "", first = true; first || cursor; first = false) {
      const page = await request(`api/albums?cursor=${encodeURIComponent(cursor)}`);
      albums.push(...page.albums);
      cursor = page.nextCursor;
    }
    const item = (view, title, count = "") => {
      const button = make("button", "", make("span", "title", title), make("span", "count", String(count)));
      button.dataset.key = keyOf(view);
      button.addEventListener("click", () => show(view));
      return make("li", "", button);
    };
    const albumItems = albums.map((a) => item({ kind: "album", id: a.id, title: a.title }, a.title, a.count));
    $("collections").replaceChildren(item({ kind: "library" }, "Library"), make("li", "separator"), ...albumItems);
    markCurrent();
  } catch (error) {
    report(error);
  }
}

const keyOf = (view) => (view.kind === "library" ? "library" : `${view.kind}:${view.id}`);
function markCurrent() {
  for (const button of document.querySelectorAll("#collections button"))
    button.setAttribute("aria-current", String(button.dataset.key === keyOf(model.view)));
}

scroller.addEventListener("scroll", onNextFrame(render));
// A burst's cell opens its frames, as an album of their own.
grid.addEventListener("click", (event) => {
  const cell = event.target.closest?.(".cell.burst");
  if (!cell) return;
  const count = Number(cell.dataset.burstCount);
  show({ kind: "burst", id: cell.dataset.id, title: `Burst (${count} photos)` });
});
grid.addEventListener("pointerover", (event) => {
  const cell = event.target.closest?.(".cell.live");
  if (cell) playMotion(cell);
});
grid.addEventListener("pointerout", (event) => {
  const cell = event.target.closest?.(".cell.live");
  if (cell && !cell.contains(event.relatedTarget)) stopMotion(cell);
});
// The grid's width sets the columns: laid out again whenever it changes, the sidebar's too.
let gridWidth = 0;
new ResizeObserver(() => {
  if (!layout || scroller.clientWidth === gridWidth) return;
  gridWidth = scroller.clientWidth;
  relayout();
}).observe(scroller);

async function start() {
  try {
    const { renditions } = await request("api/renditions");
    model.rendition = renditions.find((r) => r.name === "grid") ??
      renditions.find((r) => r.contentMode === "aspectFill") ?? renditions[0];
    if (!model.rendition) throw new Error("The server has no renditions configured.");
  } catch (error) {
    return report(error);
  }
  scroller.focus({ preventScroll: true }); // Page Down and the arrow keys scroll the grid
  loadCollections();
  show({ kind: "library" });
  setTimeout(poll, POLL_MS);
}

start();
