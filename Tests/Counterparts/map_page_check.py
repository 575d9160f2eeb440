#!/usr/bin/env python3
"""Loads a `landmark-near map` page in headless chromium and reports what a person would see.

Drives Debian's chromium over the DevTools protocol (a websocket on 127.0.0.1), so it sees
every console message, uncaught exception, log entry (CSP violations, failed loads), network
request and dialog of the page, not just its final DOM. Prints one JSON report on stdout:

    map_page_check.py PAGE.html --screenshot OUT.png [--width 1280] [--height 800] [--interact]

The report holds: consoleErrors, exceptions, logErrors, requests (every URL other than the
page's own), dialogs, ready (the page's script finished), counts of the SVG's tracks, circles,
places and their outlines (with their sizes and hover titles), markers and list entries, the legend's device names (as text),
the basemap (its land and border paths, whether each landmark lies on land), each landmark
name's box and whether it is hidden, and with --interact what
hovering a marker and a hidden name, the wheel, a drag, the buttons, a notification link and print media did.
"""
import argparse
import asyncio
import base64
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from websockets.asyncio.client import connect


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("map_page_check.py: chromium not found (run bash Scripts/setup.sh)")


class DevTools:
    """One websocket to the browser; commands to one page session (flattened)."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.pending = {}
        self.events = []
        self.session = None
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        async for message in self.socket:
            data = json.loads(message)
            if "id" in data and data["id"] in self.pending:
                self.pending.pop(data["id"]).set_result(data)
            elif "method" in data:
                self.events.append(data)
                if data["method"] == "Page.javascriptDialogOpening":
                    asyncio.create_task(self.send("Page.handleJavaScriptDialog", {"accept": True}))

    async def send(self, method, params=None, browser=False, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not browser:
            message["sessionId"] = self.session
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.socket.send(json.dumps(message))
        reply = await asyncio.wait_for(future, timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def evaluate(self, expression):
        result = await self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluate failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            for event in self.events[seen:]:
                if event["method"] == method:
                    return event
            seen = len(self.events)
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no {method} within {timeout} s")

    async def mouse(self, kind, x, y, **extra):
        await self.send("Input.dispatchMouseEvent", dict({"type": kind, "x": x, "y": y}, **extra))


COUNTS = r"""(() => {
  const q = (s) => document.querySelectorAll(s).length;
  const hidden = document.getElementById('tooltip').hidden;
  return {
    tracks: q('#tracks path.track'),
    trackPathLengths: Array.from(document.querySelectorAll('#tracks path.track')).map(p => p.getTotalLength()),
    trackParts: Array.from(document.querySelectorAll('#tracks path.track')).map(p => (p.getAttribute('d').match(/M/g) || []).length),
    circles: q('#circles path.circle'),
    circleBoxes: Array.from(document.querySelectorAll('#circles path.circle')).map(p => { const b = p.getBoundingClientRect(); return [b.width, b.height]; }),
    outlines: q('#circles path.outline'),
    outlineBoxes: Array.from(document.querySelectorAll('#circles path.outline')).map(p => { const b = p.getBoundingClientRect(); return [b.width, b.height]; }),
    places: Array.from(document.querySelectorAll('#places path.place')).map(p => p.getAttribute('class')),
    placeBoxes: Array.from(document.querySelectorAll('#places path.place')).map(p => { const b = p.getBoundingClientRect(); return [b.width, b.height]; }),
    placeTitles: Array.from(document.querySelectorAll('#circles path.outline title, #places path.place title')).map(t => t.textContent),
    legendSymbols: Array.from(document.querySelectorAll('#legend-symbols li span')).map(s => s.textContent),
    landmarks: q('#landmarks g.landmark'),
    landmarkNames: Array.from(document.querySelectorAll('#landmarks g.landmark text')).map(t => t.textContent),
    markersNotified: q('#markers g.marker.notified'),
    markersSuppressed: q('#markers g.marker.suppressed'),
    markersExit: q('#markers g.marker.exit'),
    notifications: q('#notifications a'),
    notificationTexts: Array.from(document.querySelectorAll('#notifications a .notification-text')).map(a => a.textContent),
    notificationTargets: Array.from(document.querySelectorAll('#notifications a')).map(a => a.getAttribute('href')),
    closeUps: q('#notifications svg.close-up'),
    legendDevices: Array.from(document.querySelectorAll('#legend-devices .device-name')).map(s => s.textContent),
    title: document.title,
    summary: document.getElementById('summary').textContent,
    thinning: document.getElementById('thinning').textContent,
    scaleLabel: (document.getElementById('scale-label') || {}).textContent || null,
    graticuleLines: q('#graticule line'),
    scripts: q('script'),
    images: q('img, iframe, object, embed, link'),
    tooltipHidden: hidden,
    basemap: (() => {
      const land = document.querySelector('#basemap path.land'), borders = document.querySelector('#basemap path.borders');
      if (!land || !borders) { return null; }
      const box = land.getBoundingClientRect(), map = document.getElementById('map').getBoundingClientRect();
      return { landSubpaths: (land.getAttribute('d').match(/M/g) || []).length, borderSubpaths: (borders.getAttribute('d').match(/M/g) || []).length,
               landBox: [box.left - map.left, box.top - map.top, box.right - map.left, box.bottom - map.top], dataBytes: document.getElementById('basemap-data').textContent.length };
    })(),
    landmarksOnLand: Array.from(document.querySelectorAll('#landmarks g.landmark')).map(g => {
      const m = /translate\(([-\d.e]+) ([-\d.e]+)\)/.exec(g.getAttribute('transform') || ''), land = document.querySelector('#basemap path.land');
      return m && land ? land.isPointInFill(new DOMPoint(+m[1], +m[2])) : null;
    }),
    labels: Array.from(document.querySelectorAll('#landmarks g.landmark')).map(g => {
      const t = g.querySelector('text'), b = t.getBoundingClientRect(), map = document.getElementById('map').getBoundingClientRect();
      return { name: t.textContent, hidden: g.classList.contains('label-hidden') && getComputedStyle(t).visibility === 'hidden',
               box: [b.left - map.left, b.top - map.top, b.right - map.left, b.bottom - map.top] };
    }),
    mapSize: (() => { const b = document.getElementById('map').getBoundingClientRect(); return [b.width, b.height]; })(),
    markersOnScreen: Array.from(document.querySelectorAll('#markers g.marker')).filter(m => {
      const b = m.getBoundingClientRect(), s = document.getElementById('map').getBoundingClientRect();
      return b.right > s.left && b.left < s.right && b.bottom > s.top && b.top < s.bottom;
    }).length,
  };
})()"""


async def check(page, screenshot, width, height, interact):
    chromium = find_chromium()
    profile = tempfile.mkdtemp(prefix="map-page-check-")
    arguments = [chromium, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
                 "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                 f"--user-data-dir={profile}", f"--window-size={width},{height}", "about:blank"]
    if os.geteuid() == 0:
        arguments.insert(1, "--no-sandbox")
    browser = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = pathlib.Path(profile, "DevToolsActivePort")
        deadline = time.monotonic() + 60
        while not (port_file.exists() and len(port_file.read_text().split("\n")) >= 2 and port_file.read_text().split("\n")[1]):
            if browser.poll() is not None:
                sys.exit(f"map_page_check.py: chromium exited with status {browser.returncode}")
            if time.monotonic() > deadline:
                sys.exit("map_page_check.py: chromium did not open its DevTools port within 60 s")
            time.sleep(0.05)
        port, path = port_file.read_text().split("\n")[:2]
        async with connect(f"ws://127.0.0.1:{port}{path}", max_size=64 * 1024 * 1024) as socket:
            tools = DevTools(socket)
            target = await tools.send("Target.createTarget", {"url": "about:blank"}, browser=True)
            attached = await tools.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, browser=True)
            tools.session = attached["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                await tools.send(f"{domain}.enable")
            await tools.send("Emulation.setDeviceMetricsOverride",
                             {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            url = pathlib.Path(page).resolve().as_uri()
            started = time.monotonic()
            await tools.send("Page.navigate", {"url": url})
            await tools.wait_for_event("Page.loadEventFired")
            ready = False
            for _ in range(200):
                if await tools.evaluate("document.documentElement.getAttribute('data-ready') === 'true'"):
                    ready = True
                    break
                await asyncio.sleep(0.05)
            load_seconds = time.monotonic() - started
            report = {"ready": ready, "loadSeconds": round(load_seconds, 3)}
            report.update(await tools.evaluate(COUNTS))
            shot = await tools.send("Page.captureScreenshot", {"format": "png"})
            pathlib.Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
            pathlib.Path(screenshot).write_bytes(base64.b64decode(shot["data"]))
            report["screenshot"] = screenshot

            if interact:
                report["interaction"] = await interactions(tools, width, height)

            await asyncio.sleep(0.2)  # late console messages and requests
            report.update(collect(tools.events, url))
            try:
                await tools.send("Browser.close", browser=True, timeout=5)
            except Exception:
                pass
            tools.reader.cancel()
        return report
    finally:
        if browser.poll() is None:
            browser.terminate()
            try:
                browser.wait(10)
            except subprocess.TimeoutExpired:
                browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


async def interactions(tools, width, height):
    result = {}
    transform = "document.getElementById('world').getAttribute('transform')"
    # Hover the first notification marker: the tooltip shows its details.
    box = await tools.evaluate("""(() => { const m = document.querySelector('#markers g.marker.notified');
        if (!m) return null; const b = m.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()""")
    if box:
        await tools.mouse("mouseMoved", box[0], box[1])
        await asyncio.sleep(0.1)
        result["tooltipVisible"] = await tools.evaluate("!document.getElementById('tooltip').hidden")
        result["tooltipText"] = await tools.evaluate("document.getElementById('tooltip').textContent")
        await tools.mouse("mouseMoved", 5, height - 5)
    # Hover a landmark whose name had no room (if any): the name shows.
    hidden = await tools.evaluate("""(() => { const g = document.querySelector('#landmarks g.landmark.label-hidden');
        if (!g) return null; const b = g.querySelector('path').getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()""")
    if hidden:
        result["hiddenNameBeforeHover"] = await tools.evaluate(
            "getComputedStyle(document.querySelector('#landmarks g.landmark.label-hidden text')).visibility")
        await tools.mouse("mouseMoved", hidden[0], hidden[1])
        await asyncio.sleep(0.1)
        result["hiddenNameOnHover"] = await tools.evaluate(
            "(() => { const g = document.querySelector('#landmarks g.landmark.label-hidden:hover'); return g ? getComputedStyle(g.querySelector('text')).visibility : null; })()")
        await tools.mouse("mouseMoved", 5, height - 5)
    # The wheel zooms about the pointer (and the basemap is drawn again for the new view).
    basemap = "(document.querySelector('#basemap path.borders') || {getAttribute: () => null}).getAttribute('d')"
    basemap_before = await tools.evaluate(basemap)
    before = await tools.evaluate(transform)
    map_box = await tools.evaluate("(() => { const b = document.getElementById('map').getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; })()")
    cx, cy = map_box[0] + map_box[2] / 2, map_box[1] + map_box[3] / 2
    await tools.mouse("mouseWheel", cx, cy, deltaX=0, deltaY=-400)
    await asyncio.sleep(0.15)
    after_wheel = await tools.evaluate(transform)
    result["wheelZoomed"] = scale_of(after_wheel) > scale_of(before) * 1.5
    result["basemapRedrawn"] = basemap_before is not None and await tools.evaluate(basemap) != basemap_before
    # A drag pans.
    await tools.mouse("mousePressed", cx, cy, button="left", buttons=1, clickCount=1)
    await tools.mouse("mouseMoved", cx + 60, cy + 40, button="left", buttons=1)
    await tools.mouse("mouseMoved", cx + 120, cy + 80, button="left", buttons=1)
    await tools.mouse("mouseReleased", cx + 120, cy + 80, button="left", buttons=0, clickCount=1)
    await asyncio.sleep(0.15)
    after_drag = await tools.evaluate(transform)
    result["dragPanned"] = after_drag != after_wheel and abs(scale_of(after_drag) - scale_of(after_wheel)) < 1e-9
    # The buttons.
    await tools.evaluate("document.getElementById('zoom-out').click()")
    await asyncio.sleep(0.15)
    result["zoomOutButton"] = scale_of(await tools.evaluate(transform)) < scale_of(after_drag)
    await tools.evaluate("document.getElementById('zoom-fit').click()")
    result["fitRestores"] = await tools.evaluate(transform) == before
    # Arrow keys pan; a double-click zooms in about the pointer.
    await tools.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowLeft", "code": "ArrowLeft", "windowsVirtualKeyCode": 37})
    await tools.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "ArrowLeft", "code": "ArrowLeft", "windowsVirtualKeyCode": 37})
    await asyncio.sleep(0.15)
    result["arrowKeyPans"] = await tools.evaluate(transform) != before
    await tools.evaluate("document.getElementById('zoom-fit').click()")
    for count in (1, 2):
        await tools.mouse("mousePressed", cx, cy, button="left", buttons=1, clickCount=count)
        await tools.mouse("mouseReleased", cx, cy, button="left", buttons=0, clickCount=count)
    await asyncio.sleep(0.15)
    result["doubleClickZooms"] = scale_of(await tools.evaluate(transform)) > scale_of(before) * 1.9
    await tools.evaluate("document.getElementById('zoom-fit').click()")
    # A notification link centres its marker and marks both.
    linked = await tools.evaluate("""(() => { const a = document.querySelector('#notifications a'); if (!a) return null;
        a.click(); const m = document.querySelector(a.getAttribute('href'));
        const b = m.getBoundingClientRect(), s = document.getElementById('map').getBoundingClientRect();
        return {active: m.classList.contains('active') && a.classList.contains('active'),
                dx: b.left + b.width / 2 - (s.left + s.width / 2), dy: b.top + b.height / 2 - (s.top + s.height / 2)}; })()""")
    if linked:
        result["linkActivates"] = linked["active"]
        result["linkCentres"] = abs(linked["dx"]) < 2 and abs(linked["dy"]) < 2
    # Print media: the controls go away, the page prints.
    await tools.send("Emulation.setEmulatedMedia", {"media": "print"})
    result["printHidesControls"] = await tools.evaluate("getComputedStyle(document.getElementById('controls')).display === 'none'")
    await tools.send("Emulation.setEmulatedMedia", {"media": ""})
    pdf = await tools.send("Page.printToPDF", {"printBackground": True}, timeout=60)
    result["printPDFBytes"] = len(base64.b64decode(pdf["data"]))
    return result


def scale_of(transform):
    if not transform or "scale(" not in transform:
        return 0.0
    return float(transform.split("scale(")[1].rstrip(")"))


def collect(events, url):
    console_errors, exceptions, log_errors, requests, dialogs, console = [], [], [], [], [], []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            console.append({"type": params.get("type"), "text": text})
            if params.get("type") in ("error", "assert", "warning"):
                console_errors.append(text)
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            exceptions.append(details.get("exception", {}).get("description") or details.get("text"))
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") in ("error", "warning"):
                log_errors.append(f"{entry.get('source')}: {entry.get('text')}")
        elif method == "Network.requestWillBeSent":
            request_url = params.get("request", {}).get("url", "")
            if request_url != url:
                requests.append(request_url)
        elif method == "Page.javascriptDialogOpening":
            dialogs.append(params.get("message"))
    return {"consoleErrors": console_errors, "exceptions": exceptions, "logErrors": log_errors,
            "requests": requests, "dialogs": dialogs, "console": console}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--interact", action="store_true")
    options = parser.parse_args()
    report = asyncio.run(asyncio.wait_for(check(options.page, options.screenshot, options.width, options.height, options.interact), 120))
    json.dump(report, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
