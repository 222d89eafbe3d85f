"""Crafted links and file names stay text: in Chromium, no echo of a URL's keys and values (or of an
uploaded file's name) becomes a link, an image or any request to another host.

Each page is opened with keys and values that would be a markdown link, an image, raw HTML, a
``javascript:`` URL or an autolink if the app echoed them as markdown; every request the page makes
is recorded (and any to a host but the app's refused), and the page must show no anchor or image
that points at the crafted host, while the note shows the crafted text literally.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlparse

import pytest

from scripts.served_app import wait_ready

pytestmark = pytest.mark.browser

EVIL = "evil.test"
CRAFTED = [
    f"x`[pwn](http://{EVIL}/a)`",
    f"![p](http://{EVIL}/i.png)",
    f"<img src=http://{EVIL}/h.png>",
    "javascript:alert(1)",
    f"www.{EVIL}",
    f"[a]: http://{EVIL}/ref",
]

LINKS = [
    ("perceptron", {f"k{i}`": v for i, v in enumerate(CRAFTED)} | {"T": CRAFTED[1], "seed": CRAFTED[0]}),
    ("perceptron", {"scene": CRAFTED[0]}),
    ("perceptron", {"stream": "Typed", "pts": CRAFTED[1]}),
    ("halving", {"stream": "You are the adversary", "moves": CRAFTED[0]}),
    ("wm_vs_hedge", {"stream": "Upload", "T": CRAFTED[2], "beta": CRAFTED[3], "n": CRAFTED[5]}),
]

# what the page's DOM may not contain: an anchor, image or source pointing at the crafted host
FOREIGN_JS = """(evil) => [...document.querySelectorAll('a[href], img[src], [src], [srcset], link[href]')]
    .map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('srcset') || '')
    .filter(u => u.includes(evil) || u.trim().toLowerCase().startsWith('javascript:'))"""


def _visit(browser, url, base_url, upload=None):
    origin = urlparse(base_url).netloc
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    foreign = []

    def route(r):
        if urlparse(r.request.url).scheme in ("data", "blob") or urlparse(r.request.url).netloc == origin:
            r.continue_()
        else:
            foreign.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.goto(url)
    wait_ready(page, charts=False)
    if upload is not None:
        page.locator("[data-testid=stFileUploaderDropzoneInput]").first.set_input_files(files=[upload])
        page.wait_for_timeout(800)
        wait_ready(page, charts=False)
    page.wait_for_timeout(500)
    found = page.evaluate(FOREIGN_JS, EVIL)
    text = page.locator("[data-testid=stMain]").inner_text()
    exceptions = page.locator("[data-testid=stException]").count()
    ctx.close()
    return foreign, found, text, exceptions


@pytest.mark.parametrize("slug,query", LINKS, ids=[f"{s}-{i}" for i, (s, _) in enumerate(LINKS)])
def test_a_crafted_link_adds_no_anchor_and_no_request_to_another_host(browser, base_url, slug, query):
    foreign, found, text, exceptions = _visit(browser, f"{base_url}/{slug}?{urlencode(query)}", base_url)
    assert exceptions == 0
    assert not foreign, f"requests to another host: {foreign}"
    assert not found, f"anchors or images pointing away: {found}"
    assert EVIL in text.replace("\u2060", ""), "the crafted text is not shown literally in any note"


def test_a_crafted_file_name_adds_no_anchor_and_no_request(browser, base_url):
    name = f"![p](http://{EVIL}/i.png)[x](http://{EVIL}/a).csv"
    upload = {"name": name, "mimeType": "text/csv", "buffer": b"x1,x2,y\n1,2,7\n"}
    foreign, found, text, exceptions = _visit(browser, f"{base_url}/perceptron?stream=Upload", base_url, upload)
    assert exceptions == 0
    assert not foreign, f"requests to another host: {foreign}"
    assert not found, f"anchors or images pointing away: {found}"
    assert f"http://{EVIL}/i.png" in text.replace("\u2060", ""), "the file's name is not shown literally"
