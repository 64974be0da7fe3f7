"""Driving Label Studio's labeling UI with Debian's chromium + chromium-driver (selenium).

Only 127.0.0.1 is ever opened; Selenium Manager (which would download drivers and send
statistics) is bypassed by naming the system driver and browser explicitly.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest
from selenium import webdriver  # a dev extra (pyproject.toml), for this test only
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
WAIT = 60.0

T = TypeVar("T")


def _first(paths: tuple[str, ...]) -> str | None:
    return next((p for p in paths if Path(p).exists()), None)


def require_browser() -> tuple[str, str]:
    chromium, driver = _first(CHROMIUM), _first(DRIVER)
    if chromium is None or driver is None:
        message = "the browser test needs selenium, chromium and chromium-driver (.ci/run)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return chromium, driver


@contextmanager
def chrome(shots: Path) -> Iterator[WebDriver]:
    """A headless Chromium, always quit (and its profile removed) afterwards."""
    chromium, driver = require_browser()
    os.environ.setdefault("SE_AVOID_STATS", "true")
    profile = shots / "profile"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1300,2200",
        f"--user-data-dir={profile}",
        "--no-first-run",
        "--disable-background-networking",
    ):
        options.add_argument(arg)
    browser = webdriver.Chrome(options=options, service=Service(driver))
    browser.set_page_load_timeout(WAIT)
    try:
        yield browser
    except BaseException:
        browser.save_screenshot(str(shots / "failure.png"))  # for whoever reads the log
        raise
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def until(what: str, probe: Callable[[], T | None], timeout: float = WAIT) -> T:
    """Poll ``probe`` until it returns something truthy (WebDriver errors count as not yet)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            got = probe()
        except WebDriverException:
            got = None
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.3)


def _login_form(browser: WebDriver, url: str) -> WebElement:
    """The login page's email field, after ending any session: a page still open in the
    previous user's session can renew its cookie after the cookies are deleted, and the login
    page then redirects home; a loaded machine renders the form late (or drops the load)."""
    for attempt in (1, 2):
        browser.get(f"{url}/user/logout/")
        browser.delete_all_cookies()
        browser.get(f"{url}/user/login/")
        try:
            return until("the login form", lambda: browser.find_element(By.NAME, "email"),
                         WAIT / 2 * attempt)  # fmt: skip
        except AssertionError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def login(browser: WebDriver, url: str, email: str, password: str) -> None:
    field = _login_form(browser, url)
    field.send_keys(email)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
    until(f"{email} logged in", lambda: "/user/login" not in browser.current_url)


def open_labeling(browser: WebDriver, url: str, shows: str) -> None:
    """Open a labeling URL, close the instructions, wait until the item ``shows`` is there."""
    browser.get(url)
    try:
        until("the labeling form", lambda: _form_or_modal(browser), timeout=WAIT / 2)
    except AssertionError:  # a loaded machine can drop the first load: one retry
        browser.get(url)
        until("the labeling form", lambda: _form_or_modal(browser))
    for button in browser.find_elements(By.CSS_SELECTOR, 'button[aria-label="Close modal"]'):
        if button.is_displayed():
            button.click()
    until(f"item {shows}", lambda: shows in browser.page_source)


def _form_or_modal(browser: WebDriver) -> bool:
    return bool(browser.find_elements(By.CSS_SELECTOR, "input.ant-checkbox-input"))


def choices(browser: WebDriver, value: str) -> list[WebElement]:
    """The checkboxes of a choice (by its stored value or shown text)."""
    return [
        box
        for box in browser.find_elements(By.CSS_SELECTOR, "input.ant-checkbox-input")
        if box.get_attribute("name") == value
    ]


def tick(browser: WebDriver, value: str, nth: int | None = None) -> None:
    """Click the choice ``value`` (every one of that name, or only the ``nth``)."""
    labels = [
        (box, label)
        for box in choices(browser, value)
        if (label := box.find_element(By.XPATH, "./ancestor::label")).is_displayed()
    ]
    assert labels, f"no visible choice {value!r} on the page"
    for box, label in labels if nth is None else [labels[nth]]:
        if not box.is_selected():
            label.click()


def checked(browser: WebDriver) -> int:
    return sum(
        1
        for b in browser.find_elements(By.CSS_SELECTOR, "input.ant-checkbox-input")
        if b.is_selected()
    )


def write(browser: WebDriver, field: str, text: str) -> None:
    """Type into the text area ``field`` and add it (Shift+Enter), as a reviewer does."""
    area = until(
        f"the {field} field",
        lambda: next(
            (
                a
                for a in browser.find_elements(By.CSS_SELECTOR, f'textarea[name="{field}"]')
                if a.is_displayed()
            ),
            None,
        ),
    )
    area.click()
    area.send_keys(text)
    area.send_keys(Keys.SHIFT, Keys.ENTER)


def button(browser: WebDriver, label: str) -> WebElement:
    return until(
        f"the {label} button",
        lambda: next(
            (
                b
                for b in browser.find_elements(By.CSS_SELECTOR, "button")
                if b.text.strip() == label and b.is_displayed()
            ),
            None,
        ),
    )


def enabled(element: WebElement) -> bool:
    return element.is_enabled() and element.get_attribute("disabled") is None


def annotation_tabs(browser: WebDriver) -> list[WebElement]:
    """The tabs of a task's annotations (the task list view shows everyone's)."""
    return [
        tab
        for tab in browser.find_elements(By.CSS_SELECTOR, '[class*="annotation-button"]')
        if "lsf-annotation-button" in (tab.get_attribute("class") or "").split()
    ]


def select_annotation(browser: WebDriver, showing: Callable[[], bool]) -> None:
    """Click through the annotation tabs until ``showing()`` says the wanted one is open."""
    for tab in until("annotation tabs", lambda: annotation_tabs(browser)):
        tab.click()
        time.sleep(0.5)
        if showing():
            return
    raise AssertionError("no annotation tab shows the wanted annotation")
