"""Debian's headless Chromium through its chromedriver, with the browser console kept, for the
tests that open a page the project makes (check_report.py, check_serve.py)."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def headless_chromium(width, height, *arguments):
    """A driver for a `width` x `height` window, with any further Chromium `arguments`."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                     *arguments):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
