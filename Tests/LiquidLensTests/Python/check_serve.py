#!/usr/bin/env python3
"""Drives `liquidlens serve` as its users would: the page in headless Chromium (Debian's chromium
and chromium-driver, through Selenium), and its HTTP API from many clients at once.

Checks, in order: the token and the folder are enforced (403, 404, 405, 413, an image path that
climbs out); the page loads with no console errors; 100 slider moves each change the picture
(edit-to-picture times kept); the picture equals `liquidlens render` of the saved scene pixel for
pixel; an invalid edit names its key path beside its line and keeps the last picture; the GPU /
CPU / difference toggle; export gives the editor's JSON; Save writes the file atomically with a
backup; a save by another editor reaches the page; dragging the glass moves it; an animated
scene's time scrubber; a load of 20 clients x 100 requests (valid and invalid edits) with every
answer well-formed and resident memory flat; a client that hangs up mid-render; a Vulkan
failure (the CPU reference takes over, the page says so); Ctrl-C stops the server and leaves an
unsaved file untouched.

Usage: check_serve.py LIQUIDLENS SAMPLES_FOLDER WORK_FOLDER SCREENSHOT.png  -> JSON facts on stdout;
exit 1 with the reason on stderr when a check fails.
       check_serve.py --measure LIQUIDLENS WORK_FOLDER  -> p50/p90 edit-to-picture times for the
showcase and the lens menu at scale 2 (100 moves of the lift slider each, in Chromium).
"""
import base64
import http.client
import io
import json
import os
import pathlib
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from headless_chromium import headless_chromium


def fail(message):
    sys.exit(f"check_serve: {message}")


class Server:
    """A `liquidlens serve` process and its address."""

    def __init__(self, binary, arguments, folder, environment=None):
        env = dict(os.environ, **(environment or {}))
        self.process = subprocess.Popen([binary, "serve", "--port", "0", *arguments], cwd=folder,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.time() + 60
        self.url = None
        self.banner = []
        while time.time() < deadline and self.url is None:
            line = self.process.stdout.readline()
            if not line:
                fail(f"serve {arguments} exited {self.process.wait()}: {self.process.stderr.read()}")
            self.banner.append(line)
            match = re.search(r"(http://[^ ]+)", line)
            if match:
                self.url = match.group(1).strip()
        if self.url is None:
            fail("serve printed no address within 60 s")
        parts = urllib.parse.urlparse(self.url)
        self.host, self.port = parts.hostname, parts.port
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]

    def request(self, method, path, body=None, token=True, headers=None, timeout=60):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        all_headers = dict(headers or {})
        if token:
            all_headers["X-LiquidLens-Token"] = self.token if token is True else token
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, response.getheader("Content-Type") or "", data

    def json(self, method, path, body=None, **options):
        status, kind, data = self.request(method, path, body, **options)
        if "application/json" not in kind:
            fail(f"{method} {path} answered {status} {kind!r}, not JSON: {data[:200]!r}")
        return status, json.loads(data) if data else {}

    def rss_kib(self):
        for line in pathlib.Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self):
        """Ctrl-C, then the exit status and what it printed last."""
        self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            fail("serve did not stop within 20 s of Ctrl-C")
        return status, self.process.stdout.read(), self.process.stderr.read()


def quietly(call, *arguments):
    """`call`, for a request that the server may drop as it stops."""
    try:
        call(*arguments)
    except OSError:
        pass


def pixels_of_data_url(url):
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA")


def wait_for_renders(driver, count, timeout=60):
    WebDriverWait(driver, timeout).until(lambda d: d.execute_script("return window.liquidlens.renders") >= count)


def set_editor(driver, text):
    driver.execute_script(
        "const s = document.getElementById('source'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));", text)


def slider_moves(driver, path, moves, facts_key, facts, key=Keys.ARROW_RIGHT):
    """Presses `key` on a slider `moves` times, each time waiting for the new picture."""
    slider = driver.find_element(By.CSS_SELECTOR, f'#controls input[type=range][data-path="{path}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", slider)
    driver.execute_script("window.liquidlens.latencies = []")
    pictures = set()
    for move in range(moves):
        renders = driver.execute_script("return window.liquidlens.renders")
        slider.send_keys(key)
        wait_for_renders(driver, renders + 1)
        pictures.add(driver.execute_script("return document.getElementById('picture').src.length"))
    latencies = sorted(driver.execute_script("return window.liquidlens.latencies"))
    if len(latencies) < moves:
        fail(f"{len(latencies)} pictures came back for {moves} slider moves")
    facts[facts_key] = {"moves": moves, "p50": round(latencies[len(latencies) // 2], 1),
                        "p90": round(latencies[int(len(latencies) * 0.9) - 1], 1)}
    return pictures


def check_security(server, facts):
    status, answer = server.json("GET", "/api/state", token=False)
    if status != 403 or "token" not in answer.get("error", ""):
        fail(f"a request without the token got {status} {answer}")
    status, answer = server.json("GET", "/api/state", token="0" * 32)
    if status != 403:
        fail(f"a request with a wrong token got {status}")
    status, _, _ = server.request("GET", "/", token=False)
    if status != 403:
        fail(f"the page without its token got {status}")
    status, answer = server.json("GET", "/etc/passwd")
    if status != 404:
        fail(f"an unknown path got {status}")
    status, answer = server.json("DELETE", "/api/render")
    if status != 405:
        fail(f"DELETE /api/render got {status}")
    # A 2 MiB body is refused from its Content-Length, before it is sent; one sent in chunks,
    # without a length, is refused once it passes 1 MiB.
    sock = socket.create_connection((server.host, server.port), timeout=20)
    sock.sendall(b"POST /api/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 + f"X-LiquidLens-Token: {server.token}\r\nContent-Length: {2 << 20}\r\n\r\n".encode())
    head = sock.recv(4096).decode(errors="replace")
    sock.close()
    if not head.startswith("HTTP/1.1 413"):
        fail(f"a 2 MiB Content-Length got {head[:60]!r}")
    chunk = b"x" * (256 << 10)
    chunks = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(5)) + b"0\r\n\r\n"
    status, _, _ = server.request("POST", "/api/render", chunks, headers={"Transfer-Encoding": "chunked"})
    if status != 413:
        fail(f"a 1.25 MiB chunked body got {status}")
    status, answer = server.json("POST", "/api/render", b"not json")
    if status != 400:
        fail(f"a body that is not JSON got {status}")
    _, state = server.json("GET", "/api/state")
    climbing = json.loads(state["text"])
    climbing["label"]["mask"] = "../outside.png"
    status, answer = server.json("POST", "/api/render", {"scene": json.dumps(climbing), "client": "security"})
    if status != 400 or "outside the scene's folder" not in answer.get("error", ""):
        fail(f"an image path that climbs out got {status} {answer}")
    absolute = dict(climbing, label=dict(climbing["label"], mask=str(pathlib.Path(server.folder).parent / "outside.png")))
    status, answer = server.json("POST", "/api/render", {"scene": json.dumps(absolute), "client": "security"})
    if status != 400 or "outside the scene's folder" not in answer.get("error", ""):
        fail(f"an absolute image path outside the folder got {status} {answer}")
    facts["security"] = "403 without or with a wrong token, 404, 405, 413, 400 for a path that climbs out"


def check_page(driver, server, binary, folder, work, screenshot, facts):
    driver.get(server.url)
    wait_for_renders(driver, 1)
    first = driver.find_element(By.ID, "picture").get_attribute("src")

    pictures = slider_moves(driver, "optics.saturation", 100, "lensSliderMoves", facts)
    if len(pictures) < 2:
        fail("the picture did not change while the saturation slider moved")
    after = driver.find_element(By.ID, "picture").get_attribute("src")
    if after == first:
        fail("the picture is the same after 100 slider moves")
    text = driver.find_element(By.ID, "source").get_attribute("value")
    saturation = json.loads(text)["glass"][0]["optics"]["saturation"]
    if abs(saturation - 2) > 1e-9:
        fail(f"100 steps of 0.01 from 1 gave saturation {saturation}")
    facts["saturationAfterMoves"] = saturation

    # Save, then the page's picture against the CLI's render of the saved file.
    driver.find_element(By.ID, "save").click()
    WebDriverWait(driver, 20).until(lambda d: "saved" in d.find_element(By.ID, "export-note").text)
    saved = (folder / "scene.json").read_text()
    if json.loads(saved) != json.loads(text):
        fail("the saved file is not the editor's scene")
    backup = folder / "scene.json.bak"
    if not backup.exists() or "saturation" in json.loads(backup.read_text())["glass"][0]["optics"]:
        fail("no backup of the file as it was before the save")
    cli_png = work / "cli.png"
    result = subprocess.run([binary, "render", str(folder / "scene.json"), "-o", str(cli_png), "--scale", "2",
                             "--backend", "vulkan", "-q"], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"liquidlens render failed: {result.stderr}")
    page_pixels = pixels_of_data_url(after)
    cli_pixels = Image.open(cli_png).convert("RGBA")
    if page_pixels.size != cli_pixels.size or page_pixels.tobytes() != cli_pixels.tobytes():
        fail(f"the page's picture {page_pixels.size} differs from liquidlens render's {cli_pixels.size}")
    facts["pageEqualsCLI"] = f"{page_pixels.size[0]}x{page_pixels.size[1]} px, every pixel equal"

    # Export JSON gives the editor's text.
    driver.find_element(By.ID, "export-json").click()
    exported = driver.execute_script("return window.liquidlens.lastExport")
    if exported["text"] != text or exported["name"] != "scene.json":
        fail(f"export gave {exported['name']}, not the editor's JSON")
    driver.find_element(By.ID, "export-swift").click()
    WebDriverWait(driver, 10).until(lambda d: "theme" in d.find_element(By.ID, "export-note").text)
    facts["swiftExportWithoutTheme"] = driver.find_element(By.ID, "export-note").text

    # An invalid edit: the key path beside its line; the last picture stays.
    renders = driver.execute_script("return window.liquidlens.renders")
    bad = json.loads(text)
    bad["glass"][0]["optics"]["frost"] = 99
    bad_text = json.dumps(bad, indent=2)
    set_editor(driver, bad_text)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.liquidlens.lastError"))
    error = driver.execute_script("return window.liquidlens.lastError")
    expected_line = next(i + 1 for i, line in enumerate(bad_text.splitlines()) if '"frost": 99' in line)
    if error.get("keyPath") != "glass[0].optics.frost" or error.get("line") != expected_line:
        fail(f"the invalid edit's error is {error}, expected glass[0].optics.frost at line {expected_line}")
    mark = driver.find_element(By.ID, "error-mark")
    if not mark.is_displayed() or "glass[0].optics.frost" not in mark.text:
        fail("the error is not shown beside its line")
    bad_gutter = driver.execute_script("return [...document.querySelectorAll('#gutter .bad')].map(e => e.textContent)")
    if bad_gutter != [str(expected_line)]:
        fail(f"the gutter marks lines {bad_gutter}, expected {expected_line}")
    picture = driver.find_element(By.ID, "picture")
    if picture.get_attribute("src") != after or "stale" not in picture.get_attribute("class"):
        fail("the last good picture did not stay (dimmed) after an invalid edit")
    if driver.execute_script("return window.liquidlens.renders") != renders:
        fail("an invalid edit replaced the picture")
    facts["invalidEdit"] = f"line {expected_line}: {error['keyPath']}: {error['error']}"
    driver.save_screenshot(str(work / "serve-error.png"))
    set_editor(driver, text)
    WebDriverWait(driver, 20).until(lambda d: not d.execute_script("return window.liquidlens.lastError"))

    # The GPU / CPU / difference toggle.
    views = {}
    for view in ("cpu", "diff", "gpu"):
        renders = driver.execute_script("return window.liquidlens.renders")
        driver.find_element(By.CSS_SELECTOR, f'[data-view="{view}"]').click()
        wait_for_renders(driver, renders + 1)
        views[view] = driver.find_element(By.ID, "rendered-by").text
    if not views["cpu"].startswith("Rendered by cpu reference") or "0 pixels differ" not in views["diff"]:
        fail(f"the toggle showed {views}")
    if "vulkan" not in views["gpu"]:
        fail(f"the GPU view was rendered by {views['gpu']}")
    facts["views"] = views

    # Drag the glass 40 px right.
    glass_before = json.loads(driver.find_element(By.ID, "source").get_attribute("value"))["glass"][0]["frame"]
    picture = driver.find_element(By.ID, "picture")
    width = picture.size["width"]
    canvas = driver.execute_script("return window.liquidlens.lastAnswer.effective.canvas")
    centre_x = (glass_before["x"] + glass_before["width"] / 2) / canvas["width"] * width - width / 2
    centre_y = (glass_before["y"] + glass_before["height"] / 2) / canvas["height"] * picture.size["height"] - picture.size["height"] / 2
    renders = driver.execute_script("return window.liquidlens.renders")
    ActionChains(driver).move_to_element_with_offset(picture, int(centre_x), int(centre_y)).click_and_hold() \
        .move_by_offset(20, 0).move_by_offset(20, 0).release().perform()
    wait_for_renders(driver, renders + 1)
    glass_after = json.loads(driver.find_element(By.ID, "source").get_attribute("value"))["glass"][0]["frame"]
    moved = glass_after["x"] - glass_before["x"]
    if not moved > 10 or glass_after["y"] != glass_before["y"]:
        fail(f"dragging the glass 40 px moved it from {glass_before} to {glass_after}")
    facts["dragMovedPoints"] = moved

    # Another editor saves the file while the page has unsaved edits (the drag): the page keeps
    # them and offers the file's version; taken, and saved again elsewhere, it follows at once.
    edited = json.loads(saved)
    edited["glass"][0]["optics"]["tint"] = "#ffffff30"
    dragged_text = driver.find_element(By.ID, "source").get_attribute("value")
    (folder / "scene.json").write_text(json.dumps(edited, indent=1))
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "file-changed").is_displayed())
    if driver.find_element(By.ID, "source").get_attribute("value") != dragged_text:
        fail("a save by another program replaced edits the page had not saved")
    renders = driver.execute_script("return window.liquidlens.renders")
    driver.find_element(By.ID, "load-file").click()
    WebDriverWait(driver, 10).until(
        lambda d: "#ffffff30" in d.find_element(By.ID, "source").get_attribute("value"))
    wait_for_renders(driver, renders + 1)
    edited["glass"][0]["optics"]["tint"] = "#ffffff38"
    renders = driver.execute_script("return window.liquidlens.renders")
    (folder / "scene.json").write_text(json.dumps(edited, indent=1))
    WebDriverWait(driver, 10).until(
        lambda d: "#ffffff38" in d.find_element(By.ID, "source").get_attribute("value"))
    wait_for_renders(driver, renders + 1)
    if driver.find_element(By.ID, "file-changed").is_displayed():
        fail("a page with no unsaved edits asked before following the file")
    facts["fileWatch"] = driver.find_element(By.ID, "status").text

    # Another program writes an image the scene reads (its label mask): the page draws again.
    shown = driver.find_element(By.ID, "picture").get_attribute("src")
    renders = driver.execute_script("return window.liquidlens.renders")
    original_mask = (folder / "titles.png").read_bytes()
    mask = Image.open(folder / "titles.png")
    Image.new(mask.mode, mask.size).save(folder / "titles.png")
    wait_for_renders(driver, renders + 1)
    if "image the scene reads changed" not in driver.find_element(By.ID, "status").text:
        fail(f"an image written on disk was not drawn again: {driver.find_element(By.ID, 'status').text!r}")
    if driver.find_element(By.ID, "picture").get_attribute("src") == shown:
        fail("the picture did not change when the label mask was emptied")
    facts["imageWatch"] = driver.find_element(By.ID, "status").text
    # The mask back as it was, drawn again too: the load test below renders the scene the page
    # phase warmed up (an empty label row is another set of lens pipelines to compile).
    renders = driver.execute_script("return window.liquidlens.renders")
    (folder / "titles.png").write_bytes(original_mask)
    wait_for_renders(driver, renders + 1)
    if driver.find_element(By.ID, "picture").get_attribute("src") != shown:
        fail("the label mask written back was not drawn as before")

    driver.save_screenshot(str(screenshot))
    # The invalid edits above are answered 400 on purpose (and superseded renders 409); Chromium
    # logs those as failed loads. Anything else (a script error, a blocked load) fails.
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and not re.search(r"status of (400|409)", entry["message"])]
    if errors:
        fail(f"console errors: {errors}")


def check_animation(driver, binary, samples, work, facts):
    folder = work / "animated"
    folder.mkdir()
    shutil.copy(samples / "drag.json", folder / "drag.json")
    original = (folder / "drag.json").read_bytes()
    server = Server(binary, ["drag.json"], folder)
    try:
        driver.get(server.url)
        wait_for_renders(driver, 1)
        if not driver.find_element(By.ID, "timeline").is_displayed():
            fail("an animated scene shows no time scrubber")
        first = driver.find_element(By.ID, "picture").get_attribute("src")
        renders = driver.execute_script("return window.liquidlens.renders")
        driver.execute_script(
            "const t = document.getElementById('time'); t.value = 0.8; t.dispatchEvent(new Event('input'));")
        wait_for_renders(driver, renders + 1)
        if driver.find_element(By.ID, "picture").get_attribute("src") == first:
            fail("the picture at t = 0.8 s is the picture at 0")
        renders = driver.execute_script("return window.liquidlens.renders")
        driver.find_element(By.ID, "play").click()
        wait_for_renders(driver, renders + 3)
        driver.find_element(By.ID, "play").click()
        facts["animation"] = "scrubber and play render frames on demand"
        # The page cannot save without --write.
        status, answer = server.json("POST", "/api/save", {"scene": original.decode()})
        if status != 403 or "--write" not in answer["error"]:
            fail(f"a save without --write got {status} {answer}")
    finally:
        status, out, err = server.stop()
    if status != 0 or "untouched" not in out:
        fail(f"Ctrl-C: exit {status}, said {out!r} {err!r}")
    if (folder / "drag.json").read_bytes() != original:
        fail("the file changed although nothing was saved")
    facts["ctrlC"] = out.strip().splitlines()[-1]


def check_load(server, facts):
    _, state = server.json("GET", "/api/state")
    base = json.loads(state["text"])
    answers = {}
    problems = []
    lock = threading.Lock()

    def client(number):
        rng = random.Random(number)
        for request in range(100):
            scene = json.loads(json.dumps(base))
            if rng.random() < 0.3:
                scene["glass"][0]["optics"]["frost"] = rng.choice([-1, 51, "six"])
            else:
                scene["glass"][0]["optics"]["frost"] = rng.randrange(0, 12)
            try:
                status, answer = server.json("POST", "/api/render",
                                             {"scene": json.dumps(scene), "client": f"load-{number}"}, timeout=120)
            except SystemExit as failure:
                with lock:
                    problems.append(str(failure))
                return
            except Exception as error:
                with lock:
                    problems.append(f"client {number}: {error!r}")
                return
            well_formed = (status == 200 and answer.get("image", "").startswith("data:image/png;base64,")) or \
                (status in (400, 409, 503) and isinstance(answer.get("error"), str))
            with lock:
                answers[status] = answers.get(status, 0) + 1
                if not well_formed:
                    problems.append(f"{status} {str(answer)[:200]}")

    rss = [server.rss_kib()]
    threads = [threading.Thread(target=client, args=(n,)) for n in range(20)]
    start = time.time()
    for thread in threads:
        thread.start()
    samples = []
    while any(t.is_alive() for t in threads):
        time.sleep(0.5)
        samples.append(server.rss_kib())
    for thread in threads:
        thread.join()
    if problems:
        fail(f"load test: {len(problems)} bad answers, e.g. {problems[:3]}")
    if server.process.poll() is not None:
        fail("the server died under load")
    # Flat: once the load is over, within 10 % of the size at a fifth of the run (past warm-up).
    # Read when it has settled: a pipeline compile the load made pay for may still be running in
    # the background, holding LLVM's working memory (given back when it ends).
    settled = samples[len(samples) // 5]
    end = server.rss_kib()
    for _ in range(10):
        time.sleep(1)
        now = server.rss_kib()
        if abs(now - end) < 1024:
            break
        end = now
    if end > settled * 1.10 + 8192:
        fail(f"resident memory grew under load: {settled} KiB at a fifth of the run, {end} KiB after it")
    facts["load"] = {"requests": sum(answers.values()), "answers": answers, "seconds": round(time.time() - start, 1),
                     "rssKiB": {"before": rss[0], "fifth": settled, "end": end, "peak": max(samples)}}

    # A client that hangs up mid-render, then one that stays.
    scene = json.loads(json.dumps(base))
    scene["glass"][0]["optics"]["frost"] = 17
    raw = json.dumps({"scene": json.dumps(scene), "client": "hang-up"}).encode()
    sock = socket.create_connection((server.host, server.port))
    sock.sendall(b"POST /api/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 + f"X-LiquidLens-Token: {server.token}\r\nContent-Length: {len(raw)}\r\n\r\n".encode() + raw)
    sock.close()
    status, answer = server.json("POST", "/api/render", {"scene": json.dumps(scene), "client": "after"})
    if status != 200:
        fail(f"after a client hung up mid-render the next render got {status}")
    facts["hangUp"] = "the next render answered 200"


def check_dual_stack(binary, folder, facts):
    """`--host ::` listens on IPv6 and IPv4 both; the warning says it is not only this machine."""
    server = Server(binary, ["scene.json", "--host", "::", "--backend", "cpu"], folder)
    try:
        for host in ("127.0.0.1", "::1"):
            connection = http.client.HTTPConnection(host, server.port, timeout=20)
            connection.request("GET", "/api/state", headers={"X-LiquidLens-Token": server.token})
            if connection.getresponse().status != 200:
                fail(f"--host :: does not answer on {host}")
            connection.close()
    finally:
        status, out, err = server.stop()
    if "warning: listening on ::" not in err:
        fail(f"--host :: gave no warning: {err!r}")
    facts["dualStack"] = "--host :: answers on 127.0.0.1 and ::1, with a warning"


def check_vulkan_failure(driver, binary, folder, facts):
    # Every frame on the GPU (no CPU stand-in while compiling): the device is lost at the first.
    server = Server(binary, ["scene.json", "--backend", "vulkan", "--while-compiling", "wait"], folder,
                    {"LIQUIDLENS_INJECT_DEVICE_LOST": "1"})
    try:
        driver.get(server.url)
        wait_for_renders(driver, 1, timeout=180)
        banner = driver.find_element(By.ID, "banner").text
        rendered_by = driver.find_element(By.ID, "rendered-by").text
        if "Vulkan failed" not in banner or "cpu reference" not in rendered_by:
            fail(f"after a device loss the page says {banner!r} / {rendered_by!r}")
        facts["vulkanFailure"] = banner
    finally:
        server.stop()


def measure(binary, work):
    """Edit-to-picture times over 100 moves of the control's lift slider (arrow keys, 1 → 0 in
    steps of 0.01: each a state not rendered before in that run)."""
    binary = str(pathlib.Path(binary).resolve())
    facts = {}
    driver = headless_chromium(1400, 1000)
    try:
        for example in ("segmented", "lens-menu"):
            server = Server(binary, ["--example", example, "--scale", "2"], work)
            try:
                driver.get(server.url)
                wait_for_renders(driver, 1)
                scene = json.loads(driver.find_element(By.ID, "source").get_attribute("value"))
                scene["controls"][0]["lift"] = 1
                renders = driver.execute_script("return window.liquidlens.renders")
                set_editor(driver, json.dumps(scene, indent=2))
                wait_for_renders(driver, renders + 1)
                slider_moves(driver, "lift", 100, example, facts, key=Keys.ARROW_LEFT)
                facts[example]["renderedBy"] = driver.find_element(By.ID, "rendered-by").text
                facts[example]["liftAfter"] = json.loads(
                    driver.find_element(By.ID, "source").get_attribute("value"))["controls"][0]["lift"]
            finally:
                server.stop()
    finally:
        driver.quit()
    print(json.dumps(facts, indent=1))


def main(binary, samples, work, screenshot):
    binary = str(pathlib.Path(binary).resolve())
    samples, work = pathlib.Path(samples), pathlib.Path(work)
    folder = work / "scenes"
    folder.mkdir(parents=True)
    shutil.copy(samples / "lens.json", folder / "scene.json")
    shutil.copy(samples / "titles.png", folder / "titles.png")
    shutil.copy(samples / "titles.png", work / "outside.png")
    facts = {}
    server = Server(binary, ["scene.json", "--write", "--backend", "vulkan"], folder)
    server.folder = folder
    driver = headless_chromium(1400, 1000)
    try:
        check_security(server, facts)
        check_page(driver, server, binary, folder, work, pathlib.Path(screenshot), facts)
        check_load(server, facts)
        # Ctrl-C while renders wait: they are answered at once and the server stops.
        _, state = server.json("GET", "/api/state")
        waiting = []
        for number in range(8):
            scene = json.loads(state["text"])
            scene["glass"][0]["optics"]["frost"] = 20 + number
            body = {"scene": json.dumps(scene), "client": f"stop-{number}"}
            waiting.append(threading.Thread(target=lambda b=body: quietly(server.request, "POST", "/api/render", b)))
            waiting[-1].start()
        time.sleep(0.3)
        started = time.time()
        status, out, err = server.stop()
        if status != 0 or "holds what the page saved" not in out:
            fail(f"Ctrl-C: exit {status}, said {out!r} {err!r}")
        facts["ctrlCWithRendersWaiting"] = f"stopped in {time.time() - started:.1f} s"
        for thread in waiting:
            thread.join(timeout=20)
        check_animation(driver, binary, samples, work, facts)
        check_dual_stack(binary, folder, facts)
        check_vulkan_failure(driver, binary, folder, facts)
    finally:
        driver.quit()
        if server.process.poll() is None:
            server.process.kill()
    print(json.dumps(facts, indent=1))


if __name__ == "__main__":
    if sys.argv[1] == "--measure":
        measure(sys.argv[2], pathlib.Path(sys.argv[3]))
    else:
        main(*sys.argv[1:5])
