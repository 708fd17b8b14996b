"""Headless Chromium for the web client's tests: Debian's `chromium` and
`chromium-driver` driven by Selenium. Nothing is downloaded: the driver and the browser
are the system's (Selenium Manager is never asked), and a missing one skips locally but
fails in CI (./scripts/test installs both)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.chromium.webdriver import ChromiumDriver
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from tests.servers import in_ci

WAIT_S = 20.0  # generous: a loaded 2-core machine, not a timing assertion
PHONE, DESKTOP = (390, 844), (1280, 900)


def browser_paths() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        why = "install Debian's chromium and chromium-driver (./scripts/test does as root)"
        if in_ci():
            pytest.fail(f"a headless browser is required when CI=true: {why}", pytrace=False)
        pytest.skip(why)
    return chromium, driver


@contextlib.contextmanager
def chromium(size: tuple[int, int] = DESKTOP) -> Iterator[WebDriver]:
    binary, driver_path = browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in CI
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver: WebDriver) -> WebDriverWait[WebDriver]:
    return WebDriverWait(driver, WAIT_S)


def console_errors(driver: WebDriver) -> list[dict[str, Any]]:
    """What the page logged at error level (uncaught errors, failed loads, CSP refusals)."""
    assert isinstance(driver, ChromiumDriver)  # the browser log is Chromium's
    logged: list[dict[str, Any]] = driver.get_log("browser")  # type: ignore[no-untyped-call]
    return [entry for entry in logged if entry["level"] == "SEVERE"]


def screenshot_dir(default: Path) -> Path:
    """docs/screenshots when WEB_SCREENSHOTS=1 (to refresh the README's pictures),
    else the test's own tmp dir."""
    if os.environ.get("WEB_SCREENSHOTS") == "1":
        return Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    return default


def screenshot(driver: WebDriver, folder: Path, name: str, size: tuple[int, int]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    driver.set_window_size(*size)
    driver.execute_script("window.scrollTo(0, 0)")
    path = folder / f"{name}.png"
    assert driver.save_screenshot(str(path)), f"no screenshot at {path}"
    return path


def text_of(element: WebElement) -> str:
    return str(element.text)
