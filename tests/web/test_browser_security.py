"""The client's pages under the server's security headers, in Chromium: they work under the
strict Content-Security-Policy with no violation (the ``new_page`` fixture fails a test on any,
in every browser test), the policy does block what it must (an inline script, a script from
another origin), and no other site may frame them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Browser, Page, expect

from .browsing import REPORT_VIOLATIONS, Server, create_through_the_form, play_to_end


def test_the_pages_work_under_the_policy(new_page: Callable[..., Page], server: Server) -> None:
    page = new_page()
    answer = page.goto("/")
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "frame-ancestors 'none'" in policy
    page.locator(".games > li").nth(4).wait_for()
    # A table made through the form, played to its end on its page: the WebSocket, the board,
    # the story.
    create_through_the_form(page, "royal-gambit", ["person", "heuristic"], {"target_score": "5"})
    play_to_end(page, server)
    page.goto("/rules/crush-the-crown")
    expect(page.locator("main")).to_contain_text("Crush the Crown")


def test_the_policy_blocks_what_it_must(browser: Browser, server: Server) -> None:
    context = browser.new_context(base_url=server.url)
    violations: list[str] = []
    try:
        context.add_init_script(REPORT_VIOLATIONS)
        page = context.new_page()
        page.on(
            "console",
            lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
        )
        page.goto("/")
        page.locator(".games > li").nth(4).wait_for()
        ran = page.evaluate(
            """() => {
              const inline = document.createElement("script");
              inline.textContent = "window.injected = true";
              document.body.append(inline);
              const foreign = document.createElement("script");
              foreign.src = "https://evil.example/steal.js";
              document.body.append(foreign);
              return window.injected === true;
            }"""
        )
        assert ran is False
        deadline = time.monotonic() + 30
        while not any("script-src" in text for text in violations):
            assert time.monotonic() < deadline, f"no violation reported: {violations}"
            page.wait_for_timeout(50)
        # Another site cannot frame the lobby.
        page.set_content(f'<iframe src="{server.url}/"></iframe>')
        page.frames[-1].wait_for_load_state()
        assert page.frames[-1].url.startswith("chrome-error:"), [f.url for f in page.frames]
        assert any("frame-ancestors" in text for text in violations), violations
    finally:
        context.close()
