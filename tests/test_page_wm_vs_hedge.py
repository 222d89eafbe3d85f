"""The /wm_vs_hedge page under AppTest: every bound is a trace and holds, controls changed."""

import numpy as np
import pytest

from olapp.content.wm_vs_hedge import TOPIC_SWEEP, TOPIC_TUNING
from tests.helpers import bound_traces, figures_by_title, run_page, trace, trace_names, ys, latex

PAGE = "pages/wm_vs_hedge.py"


def _topic(at, topic):
    """Open a view of "Going further" (one is drawn at a time, URL key ``further``)."""
    at.segmented_control(key="further").set_value(topic).run()
    assert not at.exception and at.segmented_control(key="further").value == topic
    return at


def _ok(at):
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]



def _check(at):
    figs = figures_by_title(at)
    reg = next(f for k, f in figs.items() if k.startswith("Regret"))
    names = trace_names(reg)
    for name in names:
        if name.endswith(": regret"):
            master = name[: -len(": regret")].split(" (")[0]
            bound = [b for b in bound_traces(reg) if b["name"].startswith(f"bound: {master}:")]
            if bound:
                assert np.all(ys(trace(reg, name)) <= ys(bound[0]) + 1e-9), master
    sweep = next((f for k, f in figs.items() if k.startswith("Hedge's regret as a function")), None)
    if sweep is not None:                            # "Going further" draws the η sweep when chosen
        b = ys(bound_traces(sweep)[0])
        expected = [tr for tr in sweep["data"] if "expected regret" in tr.get("name", "")]
        assert expected                              # the HA-1 loss, the quantity the theorem bounds
        for tr in expected:
            assert np.all(ys(tr) <= b + 1e-9), tr["name"]
    wm = next(f for k, f in figs.items() if k.startswith("WM proof"))
    W = ys(trace(wm, "ln W_t (total weight)"))
    up = ys(trace(wm, "bound: ln n + M_t ln((1+β)/2)"))
    lo = ys(trace(wm, "bound: ln β^(min_i M_t,i)"))
    assert np.all(lo <= W + 1e-9) and np.all(W <= up + 1e-9)
    hp = next(f for k, f in figs.items() if k.startswith("Hedge proof"))
    r = ys(trace(hp, "regret to u = e_i*"))
    rhs = ys(bound_traces(hp)[0])
    assert np.all(r <= rhs + 1e-9)
    for k, f in figs.items():
        if k.startswith(("Regret", "Hedge's regret as a function", "WM proof", "Hedge proof")):
            assert bound_traces(f), k
    return figs


def test_default_page_all_bounds_present_and_hold():
    at = run_page(PAGE)
    _ok(at)
    figs = _check(at)
    reg = next(f for k, f in figs.items() if k.startswith("Regret"))
    # all four masters have a bound at the defaults (WA square with eta = 1/2)
    assert {b["name"].split(":")[1].strip() for b in bound_traces(reg)} == {"WM", "RWM", "WA", "Hedge"}
    assert len(latex(at)) >= 4                               # the theorems with numbers
    assert at.segmented_control(key="stream").value == "Generated"
    sources = " ".join(m.value for m in at.markdown if "Source:" in m.value)   # in the theorem boxes
    assert "UCL COMP0078, Online learning" in sources and "CMU 16-831, Online learning" in sources
    assert "seeds/" not in sources
    intro = " ".join(m.value for m in at.markdown)
    assert "tuned to the horizon" in intro and "linearly" in intro      # REVIEW.md: RWM at a fixed η
    assert at.segmented_control(key="further").value == TOPIC_TUNING
    _check(_topic(at, TOPIC_SWEEP))                                     # the η sweep's bound holds too
    assert any(k.startswith("Hedge's regret as a function") for k in figures_by_title(at))


@pytest.mark.parametrize("query, topic", [({}, "WM and RWM at one η, η tuned to T"), ({"B": "100.0"}, "Losses in [0, B]"),
                                         ({"tuning": "Problems 3.2"}, "WM and RWM at one η, η tuned to T"),
                                         ({"B": "100.0", "tuning": "Problems 3.2"}, "WM and RWM at one η, η tuned to T"),
                                         ({"further": "The η sweep for Hedge"}, "The η sweep for Hedge")])
def test_going_further_draws_one_view_and_old_links_open_the_view_of_their_settings(query, topic):
    at = run_page(PAGE, query=query)
    _ok(at)
    assert at.segmented_control(key="further").value == topic
    titles = list(figures_by_title(at))
    assert any(t.startswith("Losses in [0, B]") for t in titles) == (topic == "Losses in [0, B]")
    assert any(t.startswith("Hedge's regret as a function") for t in titles) == (topic == "The η sweep for Hedge")


def test_wm_adversary_shows_the_factor_two():
    at = run_page(PAGE)
    at.segmented_control(key="stream").set_value("WM adversary").run()
    at.number_input(key="T").set_value(400).run()
    _ok(at)
    _check(_topic(at, TOPIC_SWEEP))
    info = " ".join(i.value for i in at.info)
    assert "WM made 400 mistakes in 400 rounds" in info and "a ratio of 2.00" in info
    assert "at least twice" in info and "about" not in info
    sweep = next(f for k, f in figures_by_title(at).items() if k.startswith("Hedge's regret as a function"))
    assert any("sampled play (HA-2)" in tr.get("name", "") for tr in sweep["data"])
    assert any("a single draw may exceed the bound" in c.value for c in at.caption)
    figs = figures_by_title(at)
    cum = next(f for k, f in figs.items() if k.startswith("Cumulative loss"))
    best = ys(trace(cum, "best expert so far"))[-1]
    wm = ys(next(t for t in cum["data"] if t["name"].startswith("WM")))[-1]
    hedge = ys(trace(cum, "Hedge: expected loss"))[-1]
    assert wm >= 1.9 * best and hedge < 1.2 * best


def test_wm_adversary_at_beta_zero_says_the_ratio_is_T():
    at = run_page(PAGE, query={"stream": "WM adversary", "T": "400", "beta": "0.0"})
    _ok(at)
    _check(at)
    info = " ".join(i.value for i in at.info)
    assert "the best expert 1:" in info and "a ratio of 400.00" in info
    assert any("does not apply" in w.value and "perfect expert" in w.value for w in at.warning)


def test_rwm_tuned_to_T_sets_its_eta():
    at = run_page(PAGE, query={"T": "2000"})
    at.toggle(key="rwm_tuned").set_value(True).run()
    _ok(at)
    assert at.slider(key="rwm_eta").disabled
    eta = (np.log(10) / 2000) ** 0.5
    assert any(rf"(1+{eta:.3g})\cdot" in l.value for l in latex(at))
    reg = _check(at)
    reg = next(f for k, f in reg.items() if k.startswith("Regret"))
    b = next(t for t in bound_traces(reg) if t["name"].startswith("bound: RWM:"))
    assert ys(b)[-1] <= 2 * (2000 * np.log(10)) ** 0.5                # 2 √(T ln n)


def test_controls_changed_beta_zero_entropic_large_eta():
    at = run_page(PAGE)
    at.slider(key="beta").set_value(0.0).run()
    at.selectbox(key="wa_loss").set_value("entropic").run()
    at.slider(key="wa_eta").set_value(1.5).run()              # above eta_max: no WA bound, said so
    at.select_slider(key="hedge_mult").set_value(10.0).run()
    at.slider(key="rwm_eta").set_value(0.5).run()
    at.number_input(key="n").set_value(30).run()
    at.number_input(key="seed").set_value(7).run()
    at.radio(key="heat").set_value("WM").run()
    at.slider(key="t").set_value(17).run()
    _ok(at)
    figs = _check(at)
    reg = next(f for k, f in figs.items() if k.startswith("Regret"))
    assert not [b for b in bound_traces(reg) if b["name"].startswith("bound: WA:")]
    assert any("no guarantee" in l.value for l in latex(at))
    assert any("does not apply" in w.value for w in at.warning)
    assert "t = 17" in str(next(f for k, f in figs.items() if k.startswith("WM:"))["layout"])


def test_upload_prompt():
    at = run_page(PAGE)
    at.segmented_control(key="stream").set_value("Upload").run()
    _ok(at)
    assert any("Upload a CSV" in i.value for i in at.info)


def test_download_explains_what_it_holds():
    at = run_page(PAGE)
    assert [d for d in at.get("download_button") if "Download this run" in d.proto.label]
    note = " ".join(c.value for c in at.caption if c.value.startswith("The download"))
    assert "(Hedge)" in note and "bound on the cumulative loss" in note and "HA-1" in note


def test_upload_a_stream_runs_every_master_on_it():
    from olcore import streams

    up = streams.expert_error_rates(120, [0.1, 0.3, 0.5], seed=4)
    at = run_page(PAGE)
    at.segmented_control(key="stream").set_value("Upload").run()
    at.file_uploader(key="wm_vs_hedge_upload").upload("mine.csv", streams.to_csv(up).encode(), "text/csv").run()
    _ok(at)
    figs = _check(_topic(at, TOPIC_SWEEP))
    assert figures_by_title(at)["Weights after round 120"]                        # the uploaded T
    m_star = int((up.X != up.y[:, None]).sum(axis=0).min())
    cum = next(f for k, f in figs.items() if k.startswith("Cumulative loss"))
    assert ys(trace(cum, "best expert so far"))[-1] == m_star
    sweep = next(f for k, f in figs.items() if k.startswith("Hedge's regret as a function"))
    assert any("sampled play (HA-2)" in tr.get("name", "") for tr in sweep["data"])    # a fixed stream
    at.file_uploader(key="wm_vs_hedge_upload").upload("bad.csv", b"a,b,y\n1,nan,1\n", "text/csv").run()
    assert not at.exception
    assert any("previous stream is kept" in e.value for e in at.error)
    assert figures_by_title(at)["Weights after round 120"]


@pytest.mark.parametrize("source, beta", [("noisy", 1 / np.e), ("adversary", 0.0)])
def test_every_figure_is_valid_plotly(source, beta):
    import plotly.graph_objects as go

    from olapp.figures import wm_vs_hedge as figs
    from olcore.lessons import wm_vs_hedge as lesson

    s = lesson.make_stream(source, 80, 5, 0.2, beta, 1)
    a = lesson.analyse(s, beta=beta, wa_loss="entropic", wa_eta=1.5)
    sw = lesson.sweep(s, source, 0.2, 1, seeds=2, points=5)
    e = a.traces["WM"].extras
    built = [figs.weights_heatmap(a.traces["Hedge"].weights, 10), figs.weights_bar({"WM": a.traces["WM"]}, 3),
             figs.cumulative_losses({"WM": a.traces["WM"].cumulative_loss}, a.best_cum, 5),
             figs.regret_ribbons({k: a.regret[k] for k in lesson.MASTERS}, a.reports, 7),
             figs.hedge_eta_sweep(sw, a.hedge_eta * 2), figs.wm_constants(beta),
             figs.wm_potential(e["log_W"], e["log_W_lower"], e["log_W_upper"], 4, beta=beta),
             figs.hedge_potential(a.hedge_rel_entropy, a.hedge_regret_u, a.hedge_proof_rhs, 4)]
    for f in built:
        go.Figure(f.to_dict())                                  # validated: raises on a bad property
    reg = built[3]
    names = [t.name for t in reg.data]
    assert "bound: WA: ln n/η" not in names and any(n.text == "WA (no bound)" for n in reg.layout.annotations)
    assert ("bound: WM: (a−1)·m*_t + b·ln n" in names) == a.reports["WM"].applies


def _notes_panels(at):
    """The charts of the notes' further forms (CMU form, tuning to T, Problems 3.2, WA's equality, losses in [0, B]): each drawn curve stays under the bound drawn beside it."""
    from tests.helpers import assert_under_bound, fig_starting

    from olapp.content.wm_vs_hedge import TUNING_TOPICS

    views = {}
    _topic(at, TOPIC_TUNING)
    for topic in TUNING_TOPICS:                   # the CMU section draws one view at a time
        at.segmented_control(key="tuning").set_value(topic).run()
        _ok(at)
        views[topic] = fig_starting(at, {"UCL and CMU forms": "WM at η =", "Regret forms (1), (2)": "Regret forms",
                                         "η tuned to T": "Average regret per round",
                                         "Problems 3.2": "Problems 3.2"}[topic])
    at.segmented_control(key="tuning").set_value(TUNING_TOPICS[0]).run()
    cmu = views["UCL and CMU forms"]
    M = next(tr for tr in cmu["data"] if tr["name"].startswith("WM mistakes"))
    ucl = next(tr for tr in bound_traces(cmu) if "UCL" in tr["name"])
    cmuf = next(tr for tr in bound_traces(cmu) if "CMU" in tr["name"])
    assert_under_bound(M, ucl)
    assert_under_bound(M, cmuf)
    assert_under_bound(ucl, cmuf)                                 # the CMU form never undercuts the UCL one
    forms = views["Regret forms (1), (2)"]
    assert_under_bound(trace(forms, "WM: M_t − m*_t"), next(b for b in bound_traces(forms) if "(1)" in b["name"]))
    assert_under_bound(trace(forms, "RWM: E[M_t] − m*_t"), next(b for b in bound_traces(forms) if "(2)" in b["name"]))
    avg = views["η tuned to T"]
    green = next(tr for tr in avg["data"] if tr["name"].startswith("RWM, η = 1/√T'"))
    assert_under_bound(green, next(b for b in bound_traces(avg) if "1/√T'" in b["name"]))
    two = views["Problems 3.2"]
    pts = next(tr for tr in two["data"] if tr["name"].startswith("WM at β_T'"))
    assert_under_bound(pts, trace(two, "bound: 4√(T' ln n)"))
    wa = fig_starting(at, "Weighted Average, entropic loss, η = 1")
    per = [tr for tr in wa["data"] if tr.get("yaxis", "y") == "y"]
    assert len(per) == 2 and np.allclose(ys(per[0]), ys(per[1]), atol=1e-9)        # both sides coincide
    assert np.all(ys(trace(wa, "Σ regret side")) <= ys(trace(wa, "bound: ln n"))[0] + 1e-9)
    sh = fig_starting(_topic(at, "Losses in [0, B]"), "Losses in [0, B]")          # left on this view
    for curve, b in zip([tr for tr in sh["data"] if not tr["name"].startswith("bound: ")], bound_traces(sh)):
        assert_under_bound(curve, b)
    return sh


def test_notes_panels_at_the_defaults_and_with_controls_changed():
    at = run_page(PAGE, query={"t": "50"})
    _ok(at)
    sh = _notes_panels(at)
    assert "B = 10" in sh["layout"]["title"]["text"]
    _topic(at, TOPIC_TUNING)
    text = " ".join(c.value for c in at.caption)
    assert "never runs below the UCL one" in text and "rounding" in text
    assert any(r"\frac{2\ln 10}{0.1}" in l.value for l in latex(at))                 # the CMU form, numbers in
    at.select_slider(key="B").set_value(100.0).run()
    at.slider(key="rwm_eta").set_value(0.5).run()
    at.slider(key="beta").set_value(0.0).run()
    _ok(at)
    sh = _notes_panels(at)
    assert "B = 100" in sh["layout"]["title"]["text"]
    assert any(r"100\sqrt{2\cdot 500\ln 10}" in l.value for l in latex(at))
    _topic(at, TOPIC_TUNING)
    at.segmented_control(key="tuning").set_value("Problems 3.2").run()
    assert any("β = 0 with no perfect expert" in c.value for c in at.caption)


def test_on_the_wm_adversary_the_tuned_rate_wins():
    at = run_page(PAGE, query={"stream": "WM adversary", "T": "2000", "t": "2000"})
    _ok(at)
    _notes_panels(at)
    _topic(at, TOPIC_TUNING)
    at.segmented_control(key="tuning").set_value("η tuned to T").run()
    avg = next(c.value for c in at.caption if c.value.startswith("After T = 2000 rounds"))
    assert "here the run tuned to T has the smaller regret per round" in avg and "WM's regret per round is 0.5" in avg


def test_the_notes_panels_figures_are_valid_plotly():
    import plotly.graph_objects as go

    from olapp.figures import wm_vs_hedge as figs
    from olcore.lessons import wm_vs_hedge as lesson

    for source, beta in (("noisy", 0.3), ("adversary", 0.0)):
        s = lesson.make_stream(source, 60, 4, 0.2, beta, 2)
        ta, we, sh = lesson.tuning(s, 0.2, beta, points=8), lesson.wa_equality(s), lesson.scaled_hedge(s, 5.0)
        for f in (figs.cmu_forms(ta, 3), figs.regret_forms(ta, 3), figs.average_regret(ta, 3), figs.two_regret(ta, 3),
                  figs.wa_equality(we, 3), figs.scaled_hedge(sh, 3)):
            go.Figure(f.to_dict())


def test_the_page_says_the_cmu_notes_log_is_the_natural_log():
    """The CMU notes (seed 001) write log N where the page writes ln n; right (the natural log),
    and the page says so once, where its first CMU bound (Randomized WM's) appears: the introduction."""
    from olapp.content.wm_vs_hedge import INTRO

    at = run_page(PAGE)
    _ok(at)
    intro = next(m.value for m in at.markdown if m.value.startswith("Without a perfect expert"))
    assert intro == INTRO
    assert "log is the natural log in the CMU notes, written $\\ln$ here" in intro
    assert intro.index("natural log") > intro.index("Randomized WM's bound")
