"""Your own data on /winnow and /perceptron, in a browser: a valid CSV is run with its bound;
a Winnow stream no disjunction labels is run without one, and says why."""

from __future__ import annotations

import pytest

from olcore import streams
from scripts.served_app import wait_ready

pytestmark = pytest.mark.browser

NAMES_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
    .map(p => [p.layout && p.layout.title ? p.layout.title.text : '', (p.data || []).map(t => t.name)])"""


def upload(browser, base_url, path, name, data):
    ctx = browser.new_context(viewport={"width": 1300, "height": 1400})
    page = ctx.new_page()
    page.goto(base_url + path)
    wait_ready(page, charts=False)
    page.locator("[data-testid=stFileUploaderDropzoneInput]").first.set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": data}])
    page.wait_for_timeout(800)
    wait_ready(page, charts=True)
    assert page.locator("[data-testid=stException]").count() == 0
    assert page.locator("[data-testid=stAlertContentError]").count() == 0
    return ctx, page


def chart(page, title):
    for t, names in page.evaluate(NAMES_JS):
        if t.replace("<b>", "").replace("</b>", "") == title:   # Streamlit's theme bolds titles
            return names
    pytest.fail(f"no chart titled {title!r}: {page.evaluate(NAMES_JS)}")


def test_winnow_upload_finds_the_disjunction_and_draws_its_bound(browser, base_url):
    s = streams.disjunction(T=200, N=50, k=3, seed=4)
    ctx, page = upload(browser, base_url, "/winnow?source=Uploaded", "mine.csv", streams.to_csv(s).encode())
    text = page.locator("[data-testid=stMain]").inner_text()
    found = ", ".join(f"x{int(r) + 1}" for r in s.info["relevant"])
    assert f"(found greedily, k = 3): {found}." in text
    assert "bound: 2 + 3k(log₂N + 1)" in chart(page, "Mistakes")
    ctx.close()


def test_winnow_upload_without_a_disjunction_has_no_bound(browser, base_url):
    xor = b"x1,x2,y\n1,0,1\n0,1,1\n1,1,0\n1,0,1\n"
    ctx, page = upload(browser, base_url, "/winnow?source=Uploaded", "xor.csv", xor)
    assert "theorem does not apply" in page.locator("[data-testid=stAlertContentWarning]").first.inner_text()
    assert not [n for n in chart(page, "Mistakes") if n.startswith("bound: ")]
    ctx.close()


def test_perceptron_upload_is_run_with_its_measured_bound(browser, base_url):
    s = streams.separable(T=80, d=3, gamma=0.1, seed=2)
    ctx, page = upload(browser, base_url, "/perceptron?source=Uploaded", "mine.csv", streams.to_csv(s).encode())
    assert "bound: (R/γ)²" in chart(page, "Mistakes")
    assert "After 80 of 80 rounds" in page.locator("[data-testid=stMain]").inner_text()
    ctx.close()
