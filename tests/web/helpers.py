"""Page helpers shared by the browser tests."""

from __future__ import annotations

import time
from typing import Any


def seq(page: Any) -> int:
    value = page.locator("#game").get_attribute("data-seq")
    return int(value) if value else -1


def wait_state(page: Any, timeout: float = 10) -> None:
    """Until the page shows a state."""
    page.wait_for_selector("#game[data-seq]", timeout=timeout * 1000)


def wait_seq_above(page: Any, before: int, timeout: float = 10) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if seq(page) > before:
            return True
        page.wait_for_timeout(20)
    return False


def join(page: Any, url: str, table: str, seat: int, name: str) -> None:
    page.goto(f"{url}/t/{table}")
    page.fill("#join-name", name)
    page.click(f"#join-form button[value='{seat}']")
    page.wait_for_selector(".who.seated")
    wait_state(page)


def game_data(page: Any, key: str) -> str:
    return page.locator("#game").get_attribute(f"data-{key}") or ""
