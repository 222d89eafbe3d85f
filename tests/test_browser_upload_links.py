"""Every lesson survives its upload link in Chromium: open ``/<lesson>?stream=Upload`` (and reload
it, as after pressing F5 following an upload), download the page's template, upload the template,
then a larger CSV made by olcore's generators: no exception, no error, and the page runs the upload.
"""

from __future__ import annotations

import pytest

from olapp import registry
from olcore import streams
from scripts.served_app import wait_ready

pytestmark = pytest.mark.browser

#: A CSV of each upload kind, larger than the templates (one of olcore's generators, written by to_csv).
REAL = {
    "linear": lambda: streams.to_csv(streams.separable(T=150, d=4, gamma=0.05, noise=0.05, seed=7)),
    "disjunction": lambda: streams.to_csv(streams.disjunction(T=150, N=20, k=2, seed=7)),
    "regression": lambda: streams.to_csv(streams.regression(T=150, d=3, seed=7)),
    "oco": lambda: streams.to_csv(streams.separable(T=120, d=2, gamma=0.1, seed=7)),
    "experts": lambda: streams.to_csv(streams.perfect_expert(T=60, n=8, seed=7)),
}
#: The upload kind each lesson's page offers (``page.source(..., upload=kind)``).
KIND = {"halving": "experts", "wm_vs_hedge": "experts", "perceptron": "linear", "kernel_perceptron": "linear",
        "online_svm": "linear", "mistakes_to_risk": "linear", "winnow": "disjunction", "widrow_hoff": "regression",
        "ogd": "oco"}
LESSONS = [lesson.slug for lesson in registry.lessons() if lesson.slug != "home"]


def test_every_registered_lesson_has_an_upload_case():
    assert sorted(KIND) == sorted(LESSONS)


def _healthy(page) -> None:
    assert page.locator("[data-testid=stException]").count() == 0, page.locator("[data-testid=stException]").first.inner_text()
    assert "This app has encountered an error" not in page.content()
    errors = page.locator("[data-testid=stAlertContentError]")
    assert errors.count() == 0, errors.first.inner_text()


def _upload(page, name: str, data: bytes) -> None:
    page.locator("[data-testid=stFileUploaderDropzoneInput]").first.set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": data}])
    page.wait_for_timeout(800)
    wait_ready(page, charts=False)
    page.get_by_text("Using your stream:").first.wait_for(timeout=60_000)
    _healthy(page)


@pytest.mark.parametrize("slug", LESSONS)
def test_an_upload_link_survives_a_reload_the_template_and_a_real_csv(browser, base_url, slug):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = ctx.new_page()
    js_errors = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    page.goto(f"{base_url}/{slug}?stream=Upload")
    wait_ready(page, charts=False)
    _healthy(page)
    page.reload()
    wait_ready(page, charts=False)
    _healthy(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Download a template CSV").first.click()
    template = open(info.value.path(), "rb").read()
    assert template.startswith(b"x1,") or b",y" in template.splitlines()[0], template[:80]
    wait_ready(page, charts=False)
    _healthy(page)
    _upload(page, f"{slug}_template.csv", template)
    _upload(page, f"{slug}_real.csv", REAL[KIND[slug]]().encode())
    text = page.locator("[data-testid=stMain]").inner_text()
    assert "Upload a CSV stream in the settings above" not in text     # the page runs the upload
    page.reload()                                                        # F5 after an upload
    wait_ready(page, charts=False)
    _healthy(page)
    assert not js_errors, js_errors
    ctx.close()
