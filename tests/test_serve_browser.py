"""The page of `flowbot serve` in a real browser: Debian's chromium driven by Selenium at a phone's size.

Nothing is downloaded: the browser and its driver are Debian's (/usr/bin/chromium, /usr/bin/chromedriver,
installed by scripts/bootstrap); the test skips when they are absent. The phone-sized screenshot of
the page is saved in $FLOWBOT_TEST_ARTIFACTS (or the test's temporary folder) and its path printed.
"""

from __future__ import annotations

import base64
import os
import signal
from pathlib import Path

import pytest

from tests.images import draw_board, png_bytes
from tests.nginx_proxy import nginx_binary, start_nginx
from tests.serve_helpers import post_image, start_server
from tests.test_capture import SCREENSHOTS
from tests.test_serve_service import BOARD

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

# A phone's viewport (CSS pixels) and pixel ratio.
PHONE = {"width": 390, "height": 844, "pixelRatio": 2}

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()), reason="Debian's chromium and chromedriver are absent"
)


@pytest.fixture(scope="module")
def server():
    """The real server on a free port."""
    running = start_server()
    yield running
    running.stop(signal.SIGTERM)


@pytest.fixture(scope="module")
def proxy(server, tmp_path_factory):
    """Debian's nginx in front of the server with the docs' block: the page under /flowbot/."""
    if nginx_binary() is None:
        pytest.skip("Debian's nginx is not installed")
    host, port = server.host_port
    running = start_nginx(tmp_path_factory.mktemp("nginx"), f"{host}:{port}")
    yield running
    running.stop()


@pytest.fixture
def browser(tmp_path):
    """Headless chromium at a phone's size, with a fresh profile and no network of its own."""
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def _artifacts(tmp_path: Path) -> Path:
    """Where the page's screenshots go: $FLOWBOT_TEST_ARTIFACTS when set, else the test's tmp folder."""
    folder = Path(os.environ.get("FLOWBOT_TEST_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _screenshot_file(tmp_path: Path) -> Path:
    """A real screenshot when the shared corpus is here, else a board drawn by the tests."""
    if SCREENSHOTS:
        return SCREENSHOTS[0][0]
    path = tmp_path / "board.png"
    path.write_bytes(png_bytes(draw_board(BOARD)))
    return path


def _wait(driver, condition, what: str, timeout: float = 60):
    """Wait until the JavaScript condition returns a true value, and return that value."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: d.execute_script(condition), message=what)


def test_upload_shows_the_board_and_hint_reveals_one_more_flow(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(server.url + "/")
    assert browser.execute_script("return window.innerWidth") == PHONE["width"]
    shot = _screenshot_file(tmp_path)
    browser.find_element(By.CSS_SELECTOR, 'input[type="file"]').send_keys(str(shot))
    _wait(browser, "return !document.getElementById('result').hidden", "the board never appeared")
    canvas = browser.find_element(By.ID, "overlay")
    assert canvas.is_displayed() and canvas.size["width"] > 0.8 * PHONE["width"] - 40
    flows = int(canvas.get_attribute("data-flows"))
    assert flows >= 3 and canvas.get_attribute("data-shown") == "0"
    message = browser.find_element(By.ID, "message").text
    assert f"with {flows} flows" in message
    # The screenshot is drawn: the canvas is not blank.
    assert browser.execute_script(
        "const c = document.getElementById('overlay');"
        "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        "for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 60) return true;"
        "return false;"
    )
    before = browser.execute_script("return document.getElementById('overlay').toDataURL()")
    browser.find_element(By.ID, "hint").click()
    assert canvas.get_attribute("data-shown") == "1"
    after = browser.execute_script("return document.getElementById('overlay').toDataURL()")
    assert after != before, "the hint drew nothing"
    assert "Hint 1 of" in browser.find_element(By.ID, "message").text
    browser.find_element(By.ID, "hint").click()
    assert canvas.get_attribute("data-shown") == "2"
    _tap_the_longest_flow(browser, server, shot)
    assert canvas.get_attribute("data-shown") == "3"
    saved = _artifacts(tmp_path) / "serve-page-phone-hint.png"
    assert browser.save_screenshot(str(saved))
    print(f"\nphone-sized screenshot of the page: {saved}")
    browser.find_element(By.ID, "solve").click()
    assert canvas.get_attribute("data-shown") == str(flows)
    assert browser.find_element(By.ID, "hint").get_attribute("disabled")
    solved = _artifacts(tmp_path) / "serve-page-phone-solved.png"
    browser.save_screenshot(str(solved))
    print(f"phone-sized screenshot of the solved page: {solved}")
    # The puzzle downloads as flowbot JSON, made in the page from the answer.
    link = browser.find_element(By.ID, "download-puzzle")
    assert link.get_attribute("download").endswith(".json")
    href = link.get_attribute("href")
    text = browser.execute_script("return fetch(arguments[0]).then(r => r.text())", href)
    assert '"schema_version": 1' in text and '"solution"' in text


def _tap_the_longest_flow(browser, server, shot: Path) -> None:
    """Tap (a real click) the middle cell of the last hint in order, and check the page tells that flow."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    status, answer = post_image(server, shot.read_bytes(), shot.name)
    assert status == 200
    hint = answer["hints"][-1]
    x, y = hint["points"][len(hint["points"]) // 2]
    canvas = browser.find_element(By.ID, "overlay")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    # Offsets from the canvas's centre in CSS pixels: it is scaled and letterboxed around its centre.
    dx, dy = browser.execute_script(
        "const c = arguments[0], box = c.getBoundingClientRect();"
        "const scale = Math.min(box.width / c.width, box.height / c.height);"
        "return [(arguments[1] - c.width / 2) * scale, (arguments[2] - c.height / 2) * scale];",
        canvas,
        x,
        y,
    )
    ActionChains(browser).move_to_element_with_offset(canvas, round(dx), round(dy)).click().perform()
    told = f"the {hint['name']} flow" if hint["name"] else f"flow {hint['label']}"
    assert browser.find_element(By.ID, "message").text.endswith(f": {told}.")


def test_a_screenshot_dropped_on_the_zone_is_read(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    shot = _screenshot_file(tmp_path)
    browser.get(server.url + "/")
    # A drop as the browser delivers it: a DragEvent whose DataTransfer holds the file.
    browser.execute_script(
        "const bytes = Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0));"
        "const transfer = new DataTransfer();"
        "transfer.items.add(new File([bytes], arguments[1], { type: 'image/png' }));"
        "const zone = document.getElementById('drop');"
        "const options = { dataTransfer: transfer, bubbles: true, cancelable: true };"
        "for (const kind of ['dragenter', 'dragover', 'drop'])"
        "  zone.dispatchEvent(new DragEvent(kind, options));",
        base64.b64encode(shot.read_bytes()).decode(),
        shot.name,
    )
    _wait(browser, "return !document.getElementById('result').hidden", "the dropped screenshot was not read")
    assert int(browser.find_element(By.ID, "overlay").get_attribute("data-flows")) >= 3
    assert "over" not in browser.find_element(By.ID, "drop").get_attribute("class")


def test_a_file_that_is_not_a_screenshot_is_a_sentence_on_the_page(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    notes = tmp_path / "notes.txt"
    notes.write_text("not a picture\n")
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, 'input[type="file"]').send_keys(str(notes))
    _wait(browser, "return document.getElementById('message').className === 'error'", "no error shown")
    message = browser.find_element(By.ID, "message").text
    assert message.startswith("The file is not an image") and message.endswith(".")
    assert not browser.find_element(By.ID, "result").is_displayed()


def _shared_picture(folder: str, pattern: str) -> Path:
    """A shared screenshot with a truth file, by a pattern of its name; skips when the data is absent."""
    found = sorted(
        path
        for path in (Path(__file__).resolve().parents[2] / "shared" / folder).glob(pattern)
        if path.with_name(path.stem + ".truth.txt").exists()
    )
    if not found:
        pytest.skip(f"../shared/{folder} is not present")
    return found[0]


def _canvas_picture(browser) -> str:
    """The canvas as a data URL, to tell whether something new was drawn."""
    return browser.execute_script("return document.getElementById('overlay').toDataURL()")


def test_a_number_match_upload_shows_the_next_pair_on_hint(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    shot = _shared_picture("numbermatch/screenshots", "bulaxrusi*.jpg")
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, 'input[type="file"]').send_keys(str(shot))
    _wait(browser, "return !document.getElementById('result').hidden", "the board never appeared")
    canvas = browser.find_element(By.ID, "overlay")
    assert canvas.get_attribute("data-game") == "numbermatch"
    moves = int(canvas.get_attribute("data-flows"))
    assert moves >= 2 and canvas.get_attribute("data-shown") == "0"
    assert "Number Match board" in browser.find_element(By.ID, "message").text
    before = _canvas_picture(browser)
    browser.find_element(By.ID, "hint").click()
    assert canvas.get_attribute("data-shown") == "1"
    assert _canvas_picture(browser) != before, "the hint drew no pair"
    _, answer = post_image(server, shot.read_bytes(), shot.name)
    first = answer["hints"][0]
    (r1, c1), (r2, c2) = first["cells"]
    told = (
        f"Move 1 of {moves}: tap the {first['digits'][0]} in row {r1 + 1}, column {c1 + 1} "
        f"and the {first['digits'][1]} in row {r2 + 1}, column {c2 + 1}."
    )
    assert browser.find_element(By.ID, "message").text == told
    # The pair is ringed in its colour on the canvas, at the points the server gave.
    x, y = (round(value) for value in first["points"][0])
    radius = round(0.45 * answer["cell_size"])
    ring = browser.execute_script(
        "const context = document.getElementById('overlay').getContext('2d');"
        "const d = context.getImageData(arguments[0], arguments[1], 1, 1).data;"
        "return [d[0], d[1], d[2]];",
        x + radius,
        y,
    )
    assert max(abs(got - want) for got, want in zip(ring, first["rgb"], strict=True)) < 60, ring
    saved = _artifacts(tmp_path) / "serve-page-phone-numbermatch-hint.png"
    assert browser.save_screenshot(str(saved))
    print(f"\nphone-sized screenshot of a Number Match hint: {saved}")


def test_a_hex_board_is_drawn_from_its_cells_and_a_tap_reveals_its_flow(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    shot = _shared_picture("screenshots/variants", "*FlowShapesSolver__4.jpg")
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, 'input[type="file"]').send_keys(str(shot))
    _wait(browser, "return !document.getElementById('result').hidden", "the board never appeared")
    canvas = browser.find_element(By.ID, "overlay")
    assert "Hexes board" in browser.find_element(By.ID, "message").text
    before = _canvas_picture(browser)
    browser.find_element(By.ID, "hint").click()
    assert canvas.get_attribute("data-shown") == "1" and _canvas_picture(browser) != before
    _tap_the_longest_flow(browser, server, shot)
    assert canvas.get_attribute("data-shown") == "2"
    saved = _artifacts(tmp_path) / "serve-page-phone-hexes.png"
    assert browser.save_screenshot(str(saved))
    print(f"phone-sized screenshot of a Hexes board with hints: {saved}")


def test_the_page_works_under_a_reverse_proxys_path(proxy, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(proxy.url)
    # Its style and script came through the proxy: the style is applied, the script answers the input.
    assert browser.execute_script("return document.styleSheets[0].cssRules.length") > 0
    shot = _screenshot_file(tmp_path)
    browser.find_element(By.CSS_SELECTOR, 'input[type="file"]').send_keys(str(shot))
    _wait(browser, "return !document.getElementById('result').hidden", "the board never appeared")
    assert int(browser.find_element(By.ID, "overlay").get_attribute("data-flows")) >= 3
    # Every file the page asked for was under the proxy's path.
    asked = browser.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
    assert asked and all(url.startswith(proxy.url) for url in asked if url.startswith("http")), asked
