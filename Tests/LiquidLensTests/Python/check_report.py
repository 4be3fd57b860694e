#!/usr/bin/env python3
"""Opens a LiquidLens HTML diff report in headless Chromium (Debian's chromium and chromium-driver,
driven by Selenium) and checks what a person would: every pair is shown with its images loaded,
the swipe control moves the divide between expected and actual (dragged with the pointer and
with the keyboard), onion skin fades instead, "Failed only" hides passing pairs, and the console
has no errors (a blocked fetch, a script error). Saves a screenshot of the top of the page.

Usage: check_report.py REPORT.html SCREENSHOT.png PAIRS FAILED  -> JSON facts on stdout; exit 1
with the reason on stderr when a check fails.
"""
import json
import pathlib
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from headless_chromium import headless_chromium


def fail(message):
    sys.exit(f"check_report: {message}")


def main(report, screenshot, pairs, failed):
    driver = headless_chromium(1280, 1000, "--allow-file-access-from-files")
    try:
        driver.get(pathlib.Path(report).resolve().as_uri())
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(
            "return document.readyState === 'complete' && [...document.images].every(i => i.complete)"))
        facts = {"pairs": len(driver.find_elements(By.CSS_SELECTOR, "section.pair"))}
        if facts["pairs"] != pairs:
            fail(f"{facts['pairs']} pairs shown, expected {pairs}")
        broken = driver.execute_script(
            "return [...document.images].filter(i => i.naturalWidth === 0).map(i => i.getAttribute('src'))")
        if broken:
            fail(f"images that did not load: {broken}")
        facts["images"] = len(driver.find_elements(By.TAG_NAME, "img"))

        compare = driver.find_element(By.CSS_SELECTOR, ".compare")
        over = compare.find_element(By.CSS_SELECTOR, ".over")
        stage = compare.find_element(By.CSS_SELECTOR, ".stage")
        slider = compare.find_element(By.CSS_SELECTOR, ".slider")
        clip = lambda: driver.execute_script("return getComputedStyle(arguments[0]).clipPath", over)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", stage)
        facts["swipeStart"] = clip()
        width = stage.size["width"]
        ActionChains(driver).move_to_element_with_offset(stage, -width // 2 + 2, 0).click_and_hold() \
            .move_by_offset(width // 5, 0).release().perform()
        facts["swipeDragged"] = clip()
        facts["sliderDragged"] = int(slider.get_attribute("value"))
        slider.send_keys(Keys.END)
        facts["swipeEnd"] = clip()
        if len({facts["swipeStart"], facts["swipeDragged"], facts["swipeEnd"]}) != 3:
            fail(f"the swipe did not move: {facts}")
        if not 10 <= facts["sliderDragged"] <= 40:
            fail(f"dragging a fifth of the way in from the left edge set the swipe to {facts['sliderDragged']}")

        compare.find_element(By.CSS_SELECTOR, "button[data-mode=onion]").click()
        slider.send_keys(Keys.HOME)
        facts["onion"] = driver.execute_script(
            "const s = getComputedStyle(arguments[0]); return [s.clipPath, s.opacity]", over)
        if facts["onion"] != ["none", "0"]:
            fail(f"onion skin at 0 should show only the expected image: {facts['onion']}")
        compare.find_element(By.CSS_SELECTOR, "button[data-mode=swipe]").click()
        slider.send_keys(Keys.HOME)
        for _ in range(50):
            slider.send_keys(Keys.RIGHT)

        driver.find_element(By.ID, "failed-only").click()
        facts["failedShown"] = len([p for p in driver.find_elements(By.CSS_SELECTOR, "section.pair") if p.is_displayed()])
        if facts["failedShown"] != failed:
            fail(f"'Failed only' shows {facts['failedShown']} pairs, expected {failed}")
        driver.find_element(By.ID, "failed-only").click()

        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(screenshot)
        errors = [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
        if errors:
            fail(f"console messages: {errors}")
        facts["consoleErrors"] = 0
        print(json.dumps(facts))
    finally:
        driver.quit()


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: check_report.py REPORT.html SCREENSHOT.png PAIRS FAILED")
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
