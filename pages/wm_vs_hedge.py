"""Weighted Majority vs Hedge: four masters on one expert stream, each against its theorem."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from olapp import controls, state
from olapp.figures import experts as figs
from olcore import StreamError, bounds, experts, streams

EPS = 0.1          # entropic Weighted Average sees the advice softened to EPS + (1 - 2 EPS) x
SEEDS = 5          # streams (or HA-2 draws) per point of the eta sweep

st.title("Weighted Majority vs Hedge: when no expert is perfect")
st.markdown(
    "Without a perfect expert Halving would cross everyone out. **Weighted Majority** keeps "
    "every expert but multiplies the weight of each wrong one by $\\beta$; it is within a "
    "constant factor of the best expert, but a deterministic vote can be fooled into erring "
    "twice as often as the best expert. **Randomizing** (follow an expert drawn by weight), "
    "**averaging** (predict the weighted mean) or **hedging** (spread a unit of money over the "
    "experts) removes the factor: the *regret* to the best expert grows only like "
    "$\\sqrt{T \\ln n}$, so the average regret vanishes."
)

STREAMS = {"Noisy experts": "noisy", "WM adversary": "adversary", "Upload": "upload"}
STREAM_HELP = (
    "**Noisy experts**: expert i errs independently with its own rate, from the best rate up to "
    "0.5 (a coin).  **WM adversary** (exercise 3.1): two constant experts (always 0, always 1); "
    "the outcome is always the opposite of deterministic WM's vote, so WM errs every round while "
    "the best expert errs about half the time.  **Upload**: your own 0/1 advice and outcomes (CSV)."
)


# -- the runs (pure functions of their inputs, cached) ----------------------------------------
def _noisy(T: int, n: int, best_rate: float, seed: int):
    return streams.expert_error_rates(T, np.linspace(best_rate, 0.5, n), seed=seed)


@st.cache_data(max_entries=16, show_spinner=False)
def make_stream(kind: str, T: int, n: int, best_rate: float, beta: float, seed: int):
    if kind == "adversary":
        return streams.adversary_wm(T, beta)
    return _noisy(T, n, best_rate, seed)


@st.cache_data(max_entries=16, show_spinner=False)
def run_all(X: np.ndarray, y: np.ndarray, beta: float, rwm_eta: float, wa_loss: str, wa_eta: float,
            hedge_eta: float, seed: int):
    """Every master on the same stream; WA entropic sees softened advice (finite losses)."""
    Xa = EPS + (1 - 2 * EPS) * X if wa_loss == "entropic" else X
    L01 = (X != y[:, None]).astype(float)
    return {
        "WM": experts.weighted_majority(X, y, beta),
        "RWM": experts.randomized_weighted_majority(X, y, 1 - rwm_eta, seed=seed),
        "WA": experts.weighted_average(Xa, y, wa_eta, wa_loss),
        "Hedge": experts.hedge(L01, hedge_eta, seed=seed),
    }


@st.cache_data(max_entries=16, show_spinner=False)
def sweep(kind: str, X: np.ndarray, y: np.ndarray, T: int, n: int, best_rate: float, seed: int):
    """Hedge's final regret over a log grid of eta around eta*, for SEEDS seeds."""
    eta_star = bounds.hedge_eta(T, n) if n > 1 else 1.0
    etas = eta_star * np.logspace(-1.3, 1.3, 25)
    R = np.zeros((SEEDS, etas.size))
    for k in range(SEEDS):
        if kind == "noisy":                      # a fresh random stream per seed
            s = _noisy(T, n, best_rate, (seed + k) % 2**32)
            Xk, yk = np.asarray(s.X), np.asarray(s.y)
        else:                                    # a fixed stream: the spread of HA-2 sampled play
            Xk, yk = X, y
        L = (Xk != yk[:, None]).astype(float)
        best = L.sum(axis=0).min()
        for j, eta in enumerate(etas):
            tr = experts.hedge(L, float(eta), seed=(seed + k) % 2**32)
            played = tr.losses if kind == "noisy" else tr.extras["sampled_loss"]
            R[k, j] = played.sum() - best
    bound = np.array([bounds.hedge_regret(T, n, float(e)) for e in etas])
    return etas, R, bound, eta_star


UCL = "UCL COMP0078 (seeds/000_8a17f779656f0ef2.txt)"
CMU = "CMU 16-831 (seeds/001_c4932eda687fdb6a.txt)"
# Each preset sets every setting (the defaults, then its own), so it is reproducible from any
# state and no two presets match the same settings.
_BASE = {"n": 10, "T": 500, "best": 0.3, "seed": 0, "beta": 0.368, "rwm_eta": 0.1, "wa_loss": "square",
         "wa_eta": 0.5, "hedge_mult": 1.0}
_NOISY = {**_BASE, "stream": "Noisy experts"}
_ADV = {**_BASE, "stream": "WM adversary", "T": 400}
PRESETS = [
    controls.Preset("WM with β = 1/e",
                    f"{UCL}, \"Number of mistakes of the WM algorithm\": with β = 1/e both constants are 2.63, "
                    "M ≤ 2.63 min_i M_i + 2.63 ln n; ten noisy experts, the best wrong 30% of the time.",
                    _NOISY),
    controls.Preset("Hedge tuned at η*",
                    f"{UCL}, Hedge theorem [LW94, FS97]: at η* = √(2 ln n/m) the expected regret is at most "
                    "√(2 m ln n), the lowest point of the dashed curve in the η sweep.",
                    {**_NOISY, "T": 1000}),
    controls.Preset("Exercise 3.1: deterministic WM errs twice as often",
                    f"{UCL}, problem 3.1: two constant experts and an outcome that always contradicts WM's vote. "
                    "WM errs every round, the best expert half the time (c-regret is linear for c < 2), while "
                    "RWM and Hedge, whose coins the stream cannot see, stay close to the best expert.",
                    _ADV),
    controls.Preset("Randomized WM with η = 1/2",
                    f"{CMU}, randomized WMA: E[M] ≤ (1 + η) m* + ln N/η; at the largest allowed η = 1/2 it is "
                    "1.5 m* + 2 ln N.",
                    {**_NOISY, "rwm_eta": 0.5}),
    controls.Preset("Weighted Average, entropic loss, η = 1",
                    f"{UCL}, Weighted Average theorem: with the entropic (log) loss and η = 1 the regret to the "
                    "best expert is at most ln n, however long the stream.",
                    {**_NOISY, "wa_loss": "entropic", "wa_eta": 1.0}),
    controls.Preset("Hedge with η ten times too large",
                    f"{UCL}, Hedge proof (2): for any η the regret is at most ln n/η + ηm/2; at 10 η* the weights "
                    "jump to whoever led last and the bound is far above √(2 m ln n).",
                    {**_ADV, "hedge_mult": 10.0}),
]

# -- controls ------------------------------------------------------------------------------------
PRESENT = state.presenter_mode()
ss = st.session_state
with st.container(border=True, key="controls"):
    preset_slot = st.container()          # filled after the widgets exist, so a shared link shows its note
    kind = STREAMS[st.radio("Stream", list(STREAMS), key="stream", bind="query-params", horizontal=True,
                            help=STREAM_HELP)]
    r1 = st.columns(4)
    n = int(r1[0].number_input("Experts n", 2, 64, 10, key="n", bind="query-params",
                               disabled=kind != "noisy",
                               help="Number of experts (the WM adversary uses 2)."))
    T = int(r1[1].number_input("Rounds T", 10, 5000, 500, step=10, key="T", bind="query-params",
                               disabled=kind == "upload", help="Length of the stream."))
    best_rate = float(r1[2].slider("Best expert's error rate", 0.0, 0.5, 0.3, 0.01, key="best",
                                   bind="query-params", disabled=kind != "noisy",
                                   help="Expert 1 errs with this probability; the others' rates rise "
                                        "evenly to 0.5 (a coin flip)."))
    with r1[3]:
        seed = controls.seed_input(key="seed")
    r2 = st.columns(4)
    beta = float(r2[0].slider("WM β", 0.0, 0.99, 0.368, 0.001, key="beta", bind="query-params",
                              format="%.3f",
                              help="Deterministic WM multiplies a wrong expert's weight by β. β = 1/e ≈ 0.368 "
                                   "gives M ≤ 2.63 min_i M_i + 2.63 ln n; β = 0 is Halving."))
    rwm_eta = float(r2[1].slider("RWM η = 1 − β", 0.01, 0.5, 0.1, 0.01, key="rwm_eta", bind="query-params",
                                 help="Randomized WM (CMU notes) multiplies a wrong expert's weight by "
                                      "1 − η; its bound needs η ≤ 1/2. Smaller η: less regret to a good "
                                      "expert, more time to find it (ln n/η)."))
    wa_loss = r2[2].selectbox("Weighted Average loss", ["square", "entropic"], key="wa_loss",
                              bind="query-params",
                              help="Square loss (y − ŷ)², bound ln n/η for η ≤ 1/2; entropic (log) loss, "
                                   f"bound ln n/η for η ≤ 1. The entropic master sees the advice softened to "
                                   f"{EPS} + {1 - 2 * EPS:.1f}·x, since a confident wrong 0/1 expert has infinite log loss.")
    wa_eta = float(r2[2].slider("Weighted Average η", 0.05, 2.0, 0.5, 0.05, key="wa_eta", bind="query-params",
                                help="Learning rate of the weighted average. The notes' theorem: η = 1/2 "
                                     "(square) or η = 1 (entropic); larger η voids the bound."))
    mult = float(r2[3].select_slider("Hedge η (multiple of η*)", [0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0], 1.0,
                                     key="hedge_mult", bind="query-params",
                                     help="Hedge's learning rate as a multiple of the tuned η* = √(2 ln n / T), "
                                          "which makes the regret bound √(2T ln n)."))
    preset = controls.preset_selector(PRESETS, key="preset", where=preset_slot)
if PRESENT and preset is not None:       # the controls are hidden: keep the lecture's claim on screen
    st.info(f"**{preset.name}**: {preset.note}", icon=":material/school:")

# -- the stream and the runs ---------------------------------------------------------------------
try:
    if kind == "upload":
        stream = controls.csv_upload("experts", key="wm_csv")
        if stream is None:
            st.info("Upload a CSV of 0/1 expert advice with the outcome y in the last column.")
            st.stop()
    else:
        stream = make_stream(kind, T, n, best_rate, beta, seed)
    X, y = np.asarray(stream.X), np.asarray(stream.y)
    T, n = X.shape
    eta_star = bounds.hedge_eta(T, n)
    hedge_eta = max(mult * eta_star, 1e-6)
    runs = run_all(X, y, beta, rwm_eta, wa_loss, wa_eta, hedge_eta, seed)
except StreamError as exc:
    controls.show_error(exc)
    st.stop()

wm, rwm, wa, hedge = runs["WM"], runs["RWM"], runs["WA"], runs["Hedge"]
L01 = hedge.expert_losses
best_cum = L01.cumsum(axis=0).min(axis=1)                     # best expert's mistakes so far
m_star = int(best_cum[-1])
rounds = np.arange(1, T + 1)
a_wm, b_wm = bounds.weighted_majority_constants(beta)
wa_ok = wa_eta <= bounds.WEIGHTED_AVERAGE_ETA_MAX[wa_loss]
# each master's bound on its cumulative loss after t rounds (for the CSV download)
with np.errstate(invalid="ignore"):
    run_bound = {
        "WM": (np.where(best_cum == 0, math.log2(n), math.inf) if beta == 0
               else a_wm * best_cum + b_wm * math.log(n)),
        "RWM": (1 + rwm_eta) * best_cum + math.log(n) / rwm_eta,        # on the expected mistakes
        "WA": (wa.cumulative_expert_loss.min(axis=1) + math.log(n) / wa_eta) if wa_ok else None,
        "Hedge": best_cum + math.log(n) / hedge_eta + hedge_eta * rounds / 2,
    }

t = controls.round_player(T, key="t", events=wm.mistakes, event_name="WM mistake")

# -- weights over rounds ----------------------------------------------------------------------
st.subheader("Expert weights, round by round")
left, right = st.columns([1.5, 1], gap="medium")
with left:
    which = st.radio("Heat map of", ["WM", "RWM", "WA", "Hedge"], index=3, horizontal=True, key="heat",
                     bind="query-params", help="Which master's normalised weights the heat map shows.")
    controls.chart(figs.weights_heatmap(runs[which].weights, min(t, T - 1),
                                         title=f"{which}: normalised weights v_t over rounds"), key="fig_heat", filename="heat")
    st.caption("Each row is an expert, each column a round; darker means more weight. The dotted line "
               "is the player's round. Weight drains from experts as they err.")
    controls.download_run(runs[which], stream, bound=run_bound[which], name=f"{which.lower()}_run",
                          key="download_run")
    if not PRESENT:                      # the button is hidden in presenter mode, and so is its note
        st.caption(f"The download is the run of the master shown in the heat map ({which}): per round its "
                   "prediction, loss, cumulative loss, the theorem's bound on the cumulative loss so far, and the "
                   "weights it used. " + {
                       "WM": "",
                       "RWM": "RWM's bound is on the expected mistakes; the loss column is this draw's.",
                       "WA": ("" if wa_ok else f"No bound: η = {wa_eta:g} is above the theorem's limit. ")
                             + ("The entropic master saw the softened advice." if wa_loss == "entropic" else ""),
                       "Hedge": "Hedge's loss is the expected loss v_t·ℓ_t.",
                   }[which])
with right:
    controls.chart(figs.weights_bar({k: r.weights_at(min(t, T)) for k, r in runs.items()}, min(t, T)), key="fig_bar", filename="bar")
    st.caption("All four masters' weights at the player's round. WM and RWM share their weights when "
               "η = 1 − β; Hedge with 0/1 losses is RWM with β = e^(−η).")

# -- losses and regret --------------------------------------------------------------------------
st.subheader("Cumulative loss and regret")
curves = {
    f"WM (β = {beta:.3g}): mistakes": wm.cumulative_loss,
    "RWM: realised mistakes": rwm.cumulative_loss,
    "RWM: expected mistakes": np.cumsum(rwm.extras["expected_loss"]),
    "Hedge: expected loss": hedge.cumulative_loss,
}
if wa_loss == "square":
    curves["WA (square): loss"] = wa.cumulative_loss
c1, c2 = st.columns([1, 1.4], gap="medium")
with c1:
    controls.chart(figs.cumulative_losses(curves, best_cum, t), key="fig_cum", filename="cum")
    st.caption("Dotted black: the best expert's mistakes so far (in hindsight). The deterministic "
               "WM curve may climb at up to about twice its slope; the randomized masters track it."
               + ("" if wa_loss == "square" else " (WA's entropic loss is in nats, so it is only in the "
                                                 "regret chart.)"))

wm_reg_bound = (np.full(T, math.inf) if beta == 0 and m_star > 0 else
                (a_wm - 1) * best_cum + b_wm * math.log(n) if beta > 0 else math.log2(n) - best_cum)
regrets = {
    "WM": wm.cumulative_loss - best_cum,
    "RWM (expected)": np.cumsum(rwm.extras["expected_loss"]) - best_cum,
    "WA": wa.regret,
    "Hedge": hedge.cumulative_loss - best_cum,
}
ribbons = {
    "RWM (expected)": ("η m*_t + ln n/η", rwm_eta * best_cum + math.log(n) / rwm_eta),
    "Hedge": ("ln n/η + ηt/2", math.log(n) / hedge_eta + hedge_eta * rounds / 2),
}
if np.isfinite(wm_reg_bound).all():
    ribbons["WM"] = ("(a−1) m*_t + b ln n", wm_reg_bound)
if wa_ok:
    ribbons["WA"] = ("ln n/η", np.full(T, math.log(n) / wa_eta))
with c2:
    controls.chart(figs.regret_ribbons(regrets, ribbons, t), key="fig_regret", filename="regret")
    st.caption("Each master's regret L_t − min_i L_t,i (solid) under its theorem's bound (dashed); the "
               "shaded ribbon is the room the bound leaves. Bounds: WM (a−1)·m\\*(t) + b·ln n; RWM η·m\\*(t) + ln n/η; "
               "WA ln n/η; Hedge ln n/η + ηt/2, with m\\*(t) the best expert's mistakes after t rounds. "
               + ("" if wa_ok else f"WA's η = {wa_eta:g} is above the theorem's limit, so it has no bound here. ")
               + ("" if "WM" in ribbons else "WM with β = 0 is Halving: no bound once every expert has erred."))

if kind == "adversary":
    ratio = wm.n_mistakes / max(m_star, 1)
    st.info(
        f"**Exercise 3.1 on screen.** WM made {wm.n_mistakes} mistakes in {T} rounds, the best expert "
        f"{m_star}: a ratio of {ratio:.2f}, about 2, whatever β. RWM's expected mistakes "
        f"{rwm.extras['expected_loss'].sum():.1f} and Hedge's expected loss {hedge.total_loss:.1f} stay "
        "close to the best expert: the stream was fixed before their coins were flipped.",
        icon=":material/casino:")

# -- the eta sweep ---------------------------------------------------------------------------------
st.subheader("The η sweep for Hedge")
etas, R, bound_curve, _ = sweep(kind, X, y, T, n, best_rate, seed)
controls.chart(figs.eta_sweep(etas, R, bound_curve, eta_star, hedge_eta), key="fig_sweep", filename="sweep")
st.caption(
    f"Hedge's regret after T = {T} rounds for 25 learning rates around η* = {eta_star:.3g}, "
    + (f"on {SEEDS} streams (seeds {seed}–{seed + SEEDS - 1}); " if kind == "noisy"
       else f"for {SEEDS} draws of the sampled play (HA-2) on this fixed stream; ")
    + "the band spans the lowest to the highest. The dashed bound ln n/η + ηT/2 is smallest at η*, where it "
      "equals √(2T ln n); every run must stay below it. Small η learns slowly (the ln n/η term); on i.i.d. "
      "noisy experts a large η (nearly follow-the-leader) does well, but on the adversarial stream it is "
      "whipsawed, and only the bound's η* protects against every stream."
)

# -- the theorems, with this run's numbers -----------------------------------------------------------
st.subheader("The theorems, for this run")
st.markdown("**Weighted Majority** (UCL notes): $M \\le \\frac{\\ln(1/\\beta)}{\\ln(2/(1+\\beta))} "
            "\\min_i M_i + \\frac{1}{\\ln(2/(1+\\beta))}\\ln n$; at $\\beta = 1/e$ both constants are 2.63.")
if beta > 0:
    st.latex(rf"M = {wm.n_mistakes} \le {a_wm:.3g}\cdot {m_star} + {b_wm:.3g}\cdot\ln {n} = "
             rf"{bounds.weighted_majority(m_star, n, beta):.4g}")
else:
    st.latex(rf"\beta = 0:\ M = {wm.n_mistakes},\ \text{{bound }} "
             + (rf"\log_2 {n} = {math.log2(n):.3g}" if m_star == 0 else r"\infty\ (\text{no perfect expert})"))
k1, k2 = st.columns([1, 1], gap="medium")
with k1:
    controls.chart(figs.wm_constants(beta), key="fig_constants", filename="constants")
with k2:
    st.markdown("")
    st.caption("The two constants of WM's bound as β varies: at β = 1/e both equal 2.63. No β brings the "
               "factor a below 2, and exercise 3.1 shows why: a deterministic master can be made to err "
               "every round while the better of two constant experts errs only half the time.")
st.markdown("**Randomized WM** (CMU notes, $\\eta = 1 - \\beta \\le 1/2$): "
            "$\\mathbb E[M] \\le (1+\\eta)\\, m^* + \\ln N/\\eta$.")
st.latex(rf"\mathbb E[M] = {rwm.extras['expected_loss'].sum():.4g} \le (1+{rwm_eta:g})\cdot {m_star} + "
         rf"\frac{{\ln {n}}}{{{rwm_eta:g}}} = {bounds.randomized_weighted_majority(m_star, n, 1 - rwm_eta):.4g}"
         rf"\qquad(\text{{this draw: }} {rwm.n_mistakes}\ \text{{mistakes}})")
best_wa = float(wa.expert_losses.sum(axis=0).min())
st.markdown(f"**Weighted Average** (UCL notes, {wa_loss} loss, $\\eta \\le "
            f"{bounds.WEIGHTED_AVERAGE_ETA_MAX[wa_loss]:g}$): $L_{{WA}} - \\min_i L_i \\le \\frac{{\\ln n}}{{\\eta}}$.")
if wa_ok:
    st.latex(rf"L_{{WA}} - \min_i L_i = {wa.total_loss:.4g} - {best_wa:.4g} = {wa.total_loss - best_wa:.4g} \le "
             rf"\frac{{\ln {n}}}{{{wa_eta:g}}} = {bounds.weighted_average(n, wa_eta, wa_loss):.4g}")
else:
    st.latex(rf"L_{{WA}} - \min_i L_i = {wa.total_loss - best_wa:.4g}"
             rf"\qquad(\eta = {wa_eta:g} > {bounds.WEIGHTED_AVERAGE_ETA_MAX[wa_loss]:g}:\ \text{{no guarantee}})")
st.markdown("**Hedge** (UCL notes, [LW94, FS97]): $\\mathbb E[L_{HA}] - \\min_i L_i \\le "
            "\\frac{\\ln n}{\\eta} + \\frac{\\eta m}{2}$, which is $\\sqrt{2 m \\ln n}$ at "
            "$\\eta^* = \\sqrt{2\\ln n/m}$.")
st.latex(rf"{hedge.total_loss:.4g} - {m_star} = {hedge.total_loss - m_star:.4g} \le "
         rf"\frac{{\ln {n}}}{{{hedge_eta:.3g}}} + \frac{{{hedge_eta:.3g}\cdot {T}}}{{2}} = "
         rf"{bounds.hedge_regret(T, n, hedge_eta):.4g}"
         + (rf" = \sqrt{{2\cdot {T}\ln {n}}}" if mult == 1.0 else rf"\ \ (\ge \sqrt{{2\cdot{T}\ln{n}}} = "
                                                                  rf"{bounds.hedge(T, n):.4g})"))

# -- the proof view ----------------------------------------------------------------------------------
st.subheader("The proofs, watched")
p1, p2 = st.columns(2, gap="medium")
with p1:
    e = wm.extras
    controls.chart(figs.wm_potential(e["log_W"], e["log_W_lower"], e["log_W_upper"], min(t, T - 1),
                                      beta=beta), key="fig_wm_proof", filename="wm_proof")
    st.caption("WM's total weight W_t (log scale) never leaves the corridor: it stays above the best "
               "expert's weight β^M_i and below n((1+β)/2)^M, which drops at every WM mistake. The "
               "corridor can only stay open for so many mistakes: that is the bound.")
with p2:
    i_star = int(hedge.extras["best"])
    d = hedge.extras["rel_entropy"]
    regret_u = np.cumsum(hedge.losses - L01[:, i_star])
    rhs = (d[0] - d[1:]) / hedge_eta + hedge_eta / 2 * np.cumsum(hedge.extras["second_moment"])
    controls.chart(figs.hedge_potential(d, regret_u, rhs, t), key="fig_hedge_proof", filename="hedge_proof")
    st.caption(f"Hedge against u = the best expert (E{i_star + 1}): the relative entropy d(u, v_t) starts at "
               f"ln n = {math.log(n):.3g} and falls as weight moves to u. Summing the per-round inequality, "
               "the regret to u stays under (d(u,v₁) − d(u,v_t+1))/η + (η/2)Σ v·ℓ²; bounding d by ln n and "
               "Σ v·ℓ² by t gives the theorem.")

st.markdown("**Show the code**: each master's reference class, line by line as in the notes.")
code = st.columns(2, gap="medium")
for col, (cls, title) in zip(code * 2, [
        (experts.WeightedMajority, "Weighted Majority (UCL)"),
        (experts.RandomizedWeightedMajority, "Randomized WM (CMU)"),
        (experts.WeightedAverage, "Weighted Average (UCL)"),
        (experts.Hedge, "Hedge, HA-1 and HA-2 (UCL)")]):
    with col:
        controls.show_code(cls, f"Show the code: {title}")
