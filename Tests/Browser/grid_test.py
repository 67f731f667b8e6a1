#!/usr/bin/env python3
"""The grid page of `thumbs serve`, checked in a real browser: headless Chromium through Selenium.

    scripts/test-browser [path/to/thumbs]     installs what is missing, then runs this
    grid_test.py [path/to/thumbs]             the test alone (default .build/debug/thumbs)

It builds a library of sample photos spread over several days, warms its cache, serves it and
opens the page. It fails (exit status 1, with the reason) unless the page loads without a console
error or warning; every cell paints its ThumbHash placeholder before its image, and the
placeholder has the colours of the photo; preheating follows Apple's rule (nothing asked for a
move of less than a third of the view); scrolling to the end step by step leaves every cell with
its final image (the grid rendition's size) while only the rows near the viewport are in the DOM;
a photo copied into the library appears without a reload; a motion photo is marked LIVE and plays
its movie (fetched by byte ranges) while the pointer is over it; and a burst is one cell with a
stack badge and its count, which opens the burst's frames. The screenshot goes to
$THUMBS_SCREENSHOT (default .build/browser/grid.png).

Then, in the same browser, a second server on a library of HDR and SDR photos whose grid
rendition asks for gain maps (hdr_files.py: a PQ AVIF made here, the HDR photos of ../shared/photos
where it exists, SDR JPEGs of the samples; warmed while the first phase runs): every cell shows its
final image, the HDR photos' cells are marked `hdr` and the SDR ones are not, each HDR photo's
thumbnail is an image/jpeg with a positive X-Thumbs-HDR-Headroom and each SDR one's has none, and
the page decodes every Ultra HDR thumbnail (img.decode(), createImageBitmap()) at the rendition's
size. The servers are stopped whatever happens, and the whole run is bounded in time.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from hdr_files import gainmap_config, make_hdr_library
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from subtype_files import burst_frame, motion_photo

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"  # ../shared beside the repository: photos/, as the other scripts find it
PHOTOS, DAYS = 120, 6
VIEWPORT = (1280, 900)
DEADLINE = time.monotonic() + 170  # the whole run, so that a hang fails instead of blocking CI

T = TypeVar("T")
# A cell as CELLS returns it (a JSON object from the page).
Cell = dict[str, Any]


class CheckError(Exception):
    """A check that did not hold; its message says which and why."""


def wait_for(what: str, check: Callable[[], T | None], timeout: float) -> T:
    """Polls check() until it returns something truthy, and returns that; fails after timeout."""
    end = min(time.monotonic() + timeout, DEADLINE)
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > end:
            raise CheckError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)


def run_thumbs(binary: Path, *arguments: object, timeout: float = 60) -> str:
    done = subprocess.run([binary, *map(str, arguments)], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise CheckError(f"thumbs {' '.join(map(str, arguments))} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def make_library(binary: Path, work: Path) -> tuple[Path, Path]:
    """PHOTOS sample photos in DAYS days (the files carry no capture date, so their modification
    times place them), and one more set aside for the live update. The deliberately broken sample
    is left out, as are the largest files, to keep the run short."""
    samples, library = work / "samples", work / "library"
    run_thumbs(binary, "sample-library", samples)
    good = sorted(
        p for p in samples.rglob("*") if p.is_file() and "broken" not in p.parts and p.stat().st_size < 1 << 20
    )
    if not good:
        raise CheckError(f"thumbs sample-library wrote no usable photo into {samples}")
    noon = time.mktime((*time.localtime()[:3], 12, 0, 0, 0, 0, -1))
    for index in range(PHOTOS):
        day, within = divmod(index, PHOTOS // DAYS)
        source = good[index % len(good)]
        target = library / f"day{day}" / f"IMG_{index:04d}{source.suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        stamp = noon - (day + 1) * 86400 - within * 60
        os.utime(target, (stamp, stamp))
    return library, good[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


def start_server(
    binary: Path, library: Path, cache: Path, log: IO[str], config: Path = ROOT / "config.json"
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    arguments = ["serve", library, "--cache", cache, "--config", config, "--listen", f"127.0.0.1:{port}"]
    server = subprocess.Popen([binary, *map(str, arguments)], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/"

    def healthy() -> bool:
        if server.poll() is not None:
            raise CheckError(f"thumbs serve exited {server.returncode} before answering /healthz")
        try:
            with urllib.request.urlopen(base + "healthz", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    try:
        wait_for("thumbs serve to answer /healthz", healthy, 30)
    except CheckError:
        stop(server)
        raise
    return server, base


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def open_browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except WebDriverException as error:
        sys.exit(
            f"grid_test: headless Chromium did not start ({error.msg}): it needs Debian's chromium and "
            "chromium-driver (scripts/requirements.tsv, browser)"
        )
    # The window size includes the browser's frame; the page is checked at exactly this viewport.
    width, height = VIEWPORT
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    return driver


# Every cell in the DOM: its asset, when its placeholder and its image were there, the image's size.
CELLS = """
const scroller = document.getElementById("scroller"), top = scroller.scrollTop, bottom = top + scroller.clientHeight;
return [...document.querySelectorAll("#grid .cell")].map((cell) => {
  const image = cell.querySelector("img"), time = (value) => (value ? Number(value) : null);
  return { id: cell.dataset.id, painted: cell.dataset.placeholderPainted ?? null,
    placeholderAt: time(cell.dataset.placeholderAt), imageAt: time(cell.dataset.imageAt),
    width: image ? image.naturalWidth : 0, height: image ? image.naturalHeight : 0,
    failed: cell.classList.contains("failed"), hdr: cell.classList.contains("hdr"),
    visible: cell.cellTop + cell.cellSize > top && cell.cellTop < bottom };
});
"""

# For each cell showing its final image: the largest difference, over R, G and B, between the
# mean colour of its image and that of its placeholder cropped the same way (centre square, as
# aspectFill crops). A ThumbHash keeps a photo's average colour, so a decoder that reads the
# format wrongly shows here.
COLOURS = """
const [ids, done] = arguments;
const mean = (source, sx, sy, sw, sh) => {
  const canvas = document.createElement("canvas"); canvas.width = canvas.height = 8;
  const context = canvas.getContext("2d"); context.drawImage(source, sx, sy, sw, sh, 0, 0, 8, 8);
  const data = context.getImageData(0, 0, 8, 8).data, sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c] += data[i + c];
  return sum.map((value) => value / 64);
};
const square = (image) => {
  const side = Math.min(image.naturalWidth, image.naturalHeight);
  return [(image.naturalWidth - side) / 2, (image.naturalHeight - side) / 2, side, side];
};
Promise.all(ids.map(async (id) => {
  const cell = document.querySelector(`#grid .cell[data-id="${CSS.escape(id)}"]`);
  const url = cell && /url\\("(.*)"\\)/.exec(cell.style.backgroundImage);
  if (!url) return [id, null];
  const placeholder = new Image(); placeholder.src = url[1]; await placeholder.decode();
  const image = cell.querySelector("img");
  const a = mean(placeholder, ...square(placeholder)), b = mean(image, ...square(image));
  return [id, Math.max(...a.map((value, c) => Math.abs(value - b[c])))];
})).then(done, (error) => done(String(error)));
"""


class GridCheck:
    def __init__(self, driver: webdriver.Chrome, base: str) -> None:
        self.driver, self.base = driver, base
        self.console: list[dict[str, Any]] = []  # every browser console entry so far
        self.final: set[str] = set()  # ids seen with their final image
        self.seen: dict[str, Cell] = {}  # every id seen settled, as it was last
        self.colour_errors: dict[str, float] = {}
        self.warmed: set[str] = set()  # ids of the photos warmed before the server started: each has a placeholder
        renditions: list[dict[str, Any]] = get_json(base + "api/renditions")["renditions"]
        self.rendition = next((r for r in renditions if r["name"] == "grid"), renditions[0])

    # Any: whatever the script returns, read as the caller expects it.
    def js(self, script: str, *arguments: object) -> Any:  # noqa: ANN401
        return self.driver.execute_script(script, *arguments)

    def collect_console(self) -> None:
        # Selenium leaves get_log untyped: a list of entries, each a JSON object.
        self.console += self.driver.get_log("browser")  # type: ignore[no-untyped-call]
        bad = [entry for entry in self.console if entry["level"] in ("SEVERE", "WARNING")]
        if bad:
            raise CheckError("the console has errors or warnings:\n" + "\n".join(e["message"] for e in bad))

    def cells(self) -> list[Cell]:
        cells: list[Cell] = self.js(CELLS)
        for cell in cells:
            if cell["failed"]:
                raise CheckError(f"cell {cell['id']}: its thumbnail failed to load")
            if cell["painted"] == "0" and cell["id"] in self.warmed:
                raise CheckError(
                    f"cell {cell['id']}: no placeholder painted, though the API gives one (it did not decode)"
                )
            if cell["painted"] == "1" and cell["imageAt"] is not None and cell["placeholderAt"] > cell["imageAt"]:
                raise CheckError(f"cell {cell['id']}: its image came before its placeholder ({cell})")
        return cells

    def is_final(self, cell: Cell) -> bool:
        return bool(cell["width"] == self.rendition["width"] and cell["height"] == self.rendition["height"])

    def settle(self, what: str, timeout: float = 30) -> list[Cell]:
        """Waits until every visible cell shows its final image and the overlay counts no blank."""

        def settled() -> list[Cell] | None:
            cells = self.cells()
            visible = [cell for cell in cells if cell["visible"]]
            if not visible or not all(self.is_final(cell) for cell in visible):
                return None
            return cells if self.js("return window.thumbsStats.blank") == 0 else None

        cells = wait_for(what, settled, timeout)
        fresh = [
            c["id"] for c in cells if c["painted"] == "1" and self.is_final(c) and c["id"] not in self.colour_errors
        ]
        compared = self.driver.execute_async_script(COLOURS, fresh)
        if isinstance(compared, str):
            raise CheckError(f"comparing placeholders with images failed in the page: {compared}")
        for id, error in compared:
            if not isinstance(error, (int, float)):
                raise CheckError(f"cell {id}: its placeholder could not be compared with its image ({error})")
            self.colour_errors[id] = error
        self.final.update(cell["id"] for cell in cells if self.is_final(cell))
        self.seen.update((cell["id"], cell) for cell in cells)
        self.collect_console()
        return cells

    def scroll_to(self, offset: int) -> None:
        # Returns after two animation frames: the scroll event, then the page's render of the
        # rows now in view, have run, so what is checked next is the new view's cells.
        self.driver.execute_async_script(
            "const [offset, done] = arguments; document.getElementById('scroller').scrollTop = offset;"
            "requestAnimationFrame(() => requestAnimationFrame(() => done()));",
            offset,
        )

    def scroll_to_end(self, offset: int, view: int) -> int:
        """From `offset` down to the end, three quarters of a view at a time, settled at each
        step: every cell is visible at one settled offset or another. Returns the most cells that
        were in the DOM at once."""
        most_in_dom = len(self.settle(f"the final images at scroll offset {offset}"))
        while offset < self.bottom():
            offset = min(offset + view * 3 // 4, self.bottom())
            self.scroll_to(offset)
            most_in_dom = max(most_in_dom, len(self.settle(f"the final images at scroll offset {offset}")))
        return most_in_dom

    def bottom(self) -> int:
        """The largest scroll offset, read at every step: it may grow while the listing's pages arrive."""
        end: int = self.js("const s = document.getElementById('scroller'); return s.scrollHeight - s.clientHeight")
        return end

    def run(self, library: Path, spare: Path, screenshot: Path) -> None:
        # Without placeholders from the API there is nothing for the page to paint: said apart
        # from a page that fails to decode them.
        assets = get_json(self.base + f"api/assets?limit={PHOTOS}")["assets"]
        without = [asset["name"] for asset in assets if not asset.get("placeholder")]
        self.warmed = {asset["id"] for asset in assets}
        if without:
            raise CheckError(
                f"/api/assets gives no placeholder for {len(without)} of {len(assets)} warmed photos "
                f"(e.g. {without[0]}): the page has no ThumbHash to paint"
            )
        started = time.monotonic()
        self.driver.get(self.base)
        wait_for("window.thumbsReady", lambda: self.js("return window.thumbsReady === true"), 20)
        count = self.js("return window.thumbsStats.count")
        if count != PHOTOS:
            raise CheckError(f"the page lays out {count} items; the library has {PHOTOS}")
        self.settle("the first screen's final images")
        print(f"first screen complete in {time.monotonic() - started:.1f} s")

        # Apple's preheat rule: a move of less than a third of the view's height asks nothing
        # (a negative, so waited for with a fixed pause); a longer one asks for what entered.
        view: int = self.js("return document.getElementById('scroller').clientHeight")
        asked = self.js("return window.thumbsStats.preheatRequests")
        self.scroll_to(view // 4)
        time.sleep(0.5)
        if self.js("return window.thumbsStats.preheatRequests") != asked:
            raise CheckError("a scroll of a quarter of the view's height preheated again")
        self.scroll_to(view // 2)
        wait_for(
            "a preheat after a scroll of half the view's height",
            lambda: self.js("return window.thumbsStats.preheatRequests") > asked,
            5,
        )

        # Down to the end from here.
        most_in_dom = self.scroll_to_end(view // 2, view)
        if len(self.final) != PHOTOS:
            missing = sorted(self.warmed - self.final)
            raise CheckError(
                f"{PHOTOS - len(self.final)} of {PHOTOS} cells never showed a final image: "
                f"{missing[:5]}, scrolled to the end, {self.bottom()} (view {view})"
            )
        if most_in_dom >= PHOTOS:
            raise CheckError(f"{most_in_dom} cells were in the DOM at once: the grid is not virtual")
        errors = sorted(self.colour_errors.values())
        print(
            f"scrolled to the end: {PHOTOS} final images, at most {most_in_dom} cells in the DOM; "
            f"placeholder colour error median {statistics.median(errors):.1f}, worst {errors[-1]:.1f} of 255"
        )
        if statistics.median(errors) > 24 or errors[-1] > 64:
            raise CheckError("placeholders do not have their photos' colours: the ThumbHash decoder misreads them")

        # A new photo, moved into the library whole (a file written in place could be seen half
        # written), appears at the top without a reload.
        self.scroll_to(0)
        self.js("window.notReloaded = true")
        before = {asset["id"] for asset in get_json(self.base + f"api/assets?limit={PHOTOS + 10}")["assets"]}
        staged = library.parent / f"IMG_9999{spare.suffix}"
        shutil.copyfile(spare, staged)
        staged.replace(library / staged.name)
        wait_for(
            "the page to count the new photo", lambda: self.js("return window.thumbsStats.count") == PHOTOS + 1, 15
        )
        after = get_json(self.base + f"api/assets?limit={PHOTOS + 10}")["assets"]
        new = [asset["id"] for asset in after if asset["id"] not in before]
        if len(new) != 1:
            raise CheckError(f"the API lists {len(new)} new assets after one photo was added")
        wait_for(
            "the new photo's final image in the grid",
            lambda: any(c["id"] == new[0] and self.is_final(c) for c in self.cells()),
            30,
        )
        if not self.js("return window.notReloaded === true"):
            raise CheckError("the page reloaded to show the new photo")
        self.settle("the first screen after the new photo")
        print("the new photo appeared without a reload")

        # A motion photo is marked LIVE, and its movie plays while the pointer is over it: the
        # browser asks the server for it by byte ranges.
        staged = library.parent / "PXL_9998.MP.jpg"
        staged.write_bytes(motion_photo(spare, library.parent))
        staged.replace(library / staged.name)
        wait_for(
            "the page to count the motion photo", lambda: self.js("return window.thumbsStats.count") == PHOTOS + 2, 15
        )
        live = [
            asset for asset in get_json(self.base + f"api/assets?limit={PHOTOS + 10}")["assets"] if asset.get("motion")
        ]
        if [asset["name"] for asset in live] != [f"{staged.name}"] or live[0]["mediaSubtypes"] != ["live"]:
            raise CheckError(f"the API's Live Photos are {[asset['name'] for asset in live]}, not the motion photo")
        selector = f'#grid .cell.live[data-id="{live[0]["id"]}"]'
        cell = wait_for(
            "the motion photo's LIVE cell", lambda: self.driver.find_elements(By.CSS_SELECTOR, selector), 15
        )[0]
        ActionChains(self.driver).move_to_element(cell).perform()
        wait_for("its movie to play under the pointer", lambda: cell.get_attribute("data-motion-playing") == "1", 20)
        ActionChains(self.driver).move_to_element(self.driver.find_element(By.ID, "collections")).perform()
        wait_for("its movie to stop when the pointer leaves", lambda: not cell.find_elements(By.TAG_NAME, "video"), 5)
        self.collect_console()
        print("the motion photo played its movie on hover")

        # A burst of four frames, moved in as one folder: one cell with a stack badge and its
        # count, which opens the burst's four frames.
        staged = library.parent / "burst"
        staged.mkdir()
        for index in range(4):
            (staged / f"IMG_{5000 + index}.JPG").write_bytes(burst_frame(spare, "8E0C5B0A-4F1D-4C3E-9B2A-7D6E5F4A3B2C"))
        staged.replace(library / "burst")
        wait_for(
            "the page to count the burst once", lambda: self.js("return window.thumbsStats.count") == PHOTOS + 3, 15
        )
        badge = wait_for(
            "the burst's cell with its badge",
            lambda: self.driver.find_elements(By.CSS_SELECTOR, '#grid .cell.burst[data-burst-count="4"]'),
            15,
        )
        badge[0].click()
        wait_for("the burst's four frames", lambda: self.js("return window.thumbsStats.count") == 4, 15)
        self.settle("the burst's frames")
        print("the burst showed as one cell and opened its four frames")

        screenshot.parent.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(screenshot))
        print(f"screenshot: {screenshot}")


# Each URL decoded in the page as an <img> (decode()) and as a fetched blob (createImageBitmap()):
# [url, [the image's width, height, the bitmap's width, height]] or [url, the error].
DECODE = """
const [urls, done] = arguments;
Promise.all(urls.map(async (url) => {
  try {
    const image = new Image(); image.src = url; await image.decode();
    const bitmap = await createImageBitmap(await (await fetch(url)).blob());
    return [url, [image.naturalWidth, image.naturalHeight, bitmap.width, bitmap.height]];
  } catch (error) { return [url, String(error)]; }
})).then(done, (error) => done(String(error)));
"""


class HdrCheck(GridCheck):
    """The page on a library of HDR and SDR photos whose grid rendition asks for gain maps."""

    def check(self, hdr: set[str], sdr: set[str]) -> None:
        if self.rendition["name"] != "grid" or self.rendition.get("hdr") != "gainmap":
            raise CheckError(f"the server's grid rendition does not ask for gain maps: {self.rendition}")
        assets: list[dict[str, Any]] = get_json(self.base + "api/assets?limit=100")["assets"]
        named = {asset["name"]: asset for asset in assets}
        if set(named) != hdr | sdr:
            raise CheckError(f"/api/assets lists {sorted(named)}; the library has {sorted(hdr | sdr)}")
        wrong = sorted(name for name, asset in named.items() if ("hdr" in asset["mediaSubtypes"]) != (name in hdr))
        if wrong:
            raise CheckError(
                f"/api/assets: the mediaSubtypes of {wrong} say HDR where they are not, or not where they are"
            )
        name_of = {asset["id"]: name for name, asset in named.items()}
        self.warmed = set(name_of)

        # The final image of each (no ?delivery=: one part, with its header fields).
        urls = {
            name: f"thumbnails/{asset['id']}/{self.rendition['name']}?v={asset['version']}"
            for name, asset in named.items()
        }
        headroom: dict[str, float] = {}
        for name, url in sorted(urls.items()):
            with urllib.request.urlopen(self.base + url, timeout=30) as response:
                kind, stops = response.headers.get_content_type(), response.headers.get("X-Thumbs-HDR-Headroom")
                response.read()
            if kind != "image/jpeg":
                raise CheckError(f"{name}'s thumbnail is {kind}, not image/jpeg")
            if name in sdr and stops is not None:
                raise CheckError(f"{name} (SDR): its thumbnail says X-Thumbs-HDR-Headroom: {stops}")
            if name in hdr:
                try:
                    headroom[name] = float(stops or "")
                except ValueError:
                    raise CheckError(f"{name} (HDR): its thumbnail's X-Thumbs-HDR-Headroom is {stops!r}") from None
                if not headroom[name] > 0:
                    raise CheckError(f"{name} (HDR): its thumbnail's X-Thumbs-HDR-Headroom is {stops}, not positive")
        print(
            "HDR: thumbnails image/jpeg; headroom (stops) "
            + ", ".join(f"{name} {stops:g}" for name, stops in sorted(headroom.items()))
            + f"; none on {', '.join(sorted(sdr))}"
        )

        # The page: every cell its final image, the HDR ones marked.
        started = time.monotonic()
        self.driver.get(self.base)
        wait_for("window.thumbsReady", lambda: self.js("return window.thumbsReady === true"), 20)
        count = self.js("return window.thumbsStats.count")
        if count != len(named):
            raise CheckError(f"the page lays out {count} items; the library has {len(named)}")
        self.scroll_to_end(0, self.js("return document.getElementById('scroller').clientHeight"))
        if self.final != self.warmed:
            missing = sorted(name_of[id] for id in self.warmed - self.final)
            raise CheckError(f"{len(missing)} of {len(named)} cells never showed a final image: {missing}")
        marked = {name_of[id] for id, cell in self.seen.items() if cell["hdr"]}
        if marked != hdr:
            raise CheckError(f"the cells marked hdr are {sorted(marked)}; the HDR photos are {sorted(hdr)}")
        print(
            f"HDR: {len(named)} final images in {time.monotonic() - started:.1f} s; "
            f"the HDR cells ({len(hdr)}) marked hdr, the SDR ones ({len(sdr)}) not"
        )

        # Every Ultra HDR thumbnail decodes in the page, at the rendition's size.
        size = [self.rendition["width"], self.rendition["height"]]
        decoded = self.driver.execute_async_script(DECODE, [urls[name] for name in sorted(hdr)])
        if isinstance(decoded, str):
            raise CheckError(f"decoding the Ultra HDR thumbnails failed in the page: {decoded}")
        for url, sizes in decoded:
            if isinstance(sizes, str):
                raise CheckError(f"{url} did not decode in the page: {sizes}")
            if sizes != size * 2:
                raise CheckError(f"{url} decoded at {sizes} (img, then bitmap), not {size[0]}×{size[1]}")
        self.collect_console()
        print(
            f"HDR: the Ultra HDR thumbnails ({len(hdr)}) decode in the page (img.decode(), createImageBitmap()), "
            f"{size[0]}×{size[1]}"
        )


def warm_in_background(binary: Path, library: Path, cache: Path, config: Path, log: Path) -> subprocess.Popen[bytes]:
    """thumbs warm, its output in `log`, left to run while something else does (finish_warm)."""
    arguments = ["warm", library, "--cache", cache, "--config", config, "--quiet"]
    with open(log, "w") as output:
        return subprocess.Popen([binary, *map(str, arguments)], stdout=output, stderr=subprocess.STDOUT)


def finish_warm(warm: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    started = time.monotonic()
    try:
        warm.wait(timeout=max(1.0, min(timeout, DEADLINE - started)))
    except subprocess.TimeoutExpired:
        raise CheckError(f"thumbs warm of the HDR library did not end within {timeout} s") from None
    if warm.returncode != 0:
        raise CheckError(f"thumbs warm of the HDR library exited {warm.returncode}:\n{log.read_text()}")
    print(f"HDR: the library warmed in the background ({time.monotonic() - started:.1f} s waited for it)")


def check_grid(binary: Path, screenshot: Path, work: Path, log: IO[str]) -> int:
    """The checks, in `work`, with thumbs serve's output in `log`: 0 when they hold, 1 otherwise."""
    processes: list[subprocess.Popen[bytes]] = []  # stopped at the end, whatever happens
    driver: webdriver.Chrome | None = None
    try:
        library, spare = make_library(binary, work)
        hdr_library, hdr_config, hdr_cache = work / "hdr" / "library", work / "hdr" / "config.json", work / "hdr-cache"
        hdr, sdr = make_hdr_library(hdr_library, work / "samples", SHARED / "photos")
        gainmap_config(ROOT / "config.json", hdr_config)
        run_thumbs(
            binary, "warm", library, "--cache", work / "cache", "--config", ROOT / "config.json", "--quiet", timeout=90
        )
        # The HDR phase's library is warmed while the grid's page is checked, which leaves the
        # processors time (the warms of both at once take as long as one after the other).
        warm_log = work / "hdr" / "warm.log"
        hdr_warm = warm_in_background(binary, hdr_library, hdr_cache, hdr_config, warm_log)
        processes.append(hdr_warm)
        server, base = start_server(binary, library, work / "cache", log)
        processes.append(server)
        driver = open_browser()
        GridCheck(driver, base).run(library, spare, screenshot)
        stop(server)

        finish_warm(hdr_warm, warm_log, 90)
        server, base = start_server(binary, hdr_library, hdr_cache, log, hdr_config)
        processes.append(server)
        HdrCheck(driver, base).check(hdr, sdr)
        print("grid_test: passed")
        return 0
    except (CheckError, WebDriverException, OSError, subprocess.SubprocessError) as error:
        print(f"grid_test: FAILED: {error}", file=sys.stderr)
        log.flush()
        log.seek(0)
        tail = log.read().splitlines()[-30:]
        if tail:
            print("last lines of thumbs serve's output:\n  " + "\n  ".join(tail), file=sys.stderr)
        return 1
    finally:
        if driver is not None:
            driver.quit()
        for process in processes:
            stop(process)


def main() -> int:
    binary = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / ".build/debug/thumbs").resolve()
    screenshot = Path(os.environ.get("THUMBS_SCREENSHOT", ROOT / ".build/browser/grid.png")).resolve()
    if not os.access(binary, os.X_OK):
        print(f"grid_test: no thumbs binary at {binary} (build it, or pass its path)", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="thumbs-browser-"))
    try:
        with open(work / "server.log", "w+") as log:
            return check_grid(binary, screenshot, work, log)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
