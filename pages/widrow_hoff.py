"""Widrow-Hoff (LMS): online linear regression, Theorem 1 and its potential proof, online-to-batch."""

from __future__ import annotations

import numpy as np
import streamlit as st

from olapp import controls
from olapp.figures import downsample
from olapp.figures import regression as figs
from olcore import StreamError, bounds, linear, streams
from olcore import online_to_batch as o2b
from olcore.linear.eg import simplex_stream
from olcore.linear.widrow_hoff import WidrowHoff, proof_quantities, to_unit_ball, widrow_hoff_many

SOURCE = "seeds/004_d8e420cbfd1746de.txt (COS 511, lecture 18)"

st.title("Widrow-Hoff: online linear regression")
st.markdown(
    "Each round the learner sees $\\mathbf x_t$, predicts $\\hat y_t = \\mathbf w_t\\cdot\\mathbf x_t$, "
    "then learns $y_t$ and pays the square loss $(\\hat y_t - y_t)^2$. **Widrow-Hoff** (least mean "
    "squares) takes a small gradient step on that one loss, "
    "$\\mathbf w_{t+1} = \\mathbf w_t - \\eta(\\mathbf w_t\\cdot\\mathbf x_t - y_t)\\mathbf x_t$: it moves "
    "toward the loss it just suffered without forgetting what $\\mathbf w_t$ already knows. With "
    "$\\|\\mathbf x_t\\| \\le 1$ its total loss is never much more than that of the best fixed "
    "vector $\\mathbf u$ chosen in hindsight, whatever the data."
)

# ---- controls --------------------------------------------------------------------------------

PRESETS = [
    controls.Preset("A little noise (d = 2)", "The default: watch w_t walk to u and jitter around it; "
                    "the bound holds with room to spare.",
                    dict(src="Synthetic", d=2.0, T=200.0, noise=0.3, norm_u=1.5, eta=0.2, seed=0)),
    controls.Preset("Noise-free: loss stays bounded forever", "σ = 0, so some u has L_u = 0 and Theorem 1 reads "
                    "L_WH ≤ ‖u‖²/η: the total loss stops growing, however long the stream.",
                    dict(src="Synthetic", d=2.0, T=1000.0, noise=0.0, norm_u=1.5, eta=0.9, seed=0)),
    controls.Preset("Too large η: noise is amplified", "η = 0.95 chases every noisy target; the L_u/(1−η) "
                    "term of the bound explodes and the trajectory never settles.",
                    dict(src="Synthetic", d=2.0, T=500.0, noise=1.0, norm_u=1.5, eta=0.95, seed=0)),
    controls.Preset("Too small η: a slow start", "η = 0.02 barely moves: the ‖u‖²/η term dominates and "
                    "w_t is still far from u after hundreds of rounds.",
                    dict(src="Synthetic", d=2.0, T=500.0, noise=0.3, norm_u=3.0, eta=0.02, seed=0)),
    controls.Preset("Ten features", "d = 10: no plane to draw, but the theorem does not depend on d.",
                    dict(src="Synthetic", d=10.0, T=1000.0, noise=0.3, norm_u=2.0, eta=0.3, seed=0)),
]

controls_box = st.container(key="controls", border=True)  # hidden in presenter mode
with controls_box:
    controls.preset_selector(PRESETS, key="preset")
    src = st.segmented_control(
        "Stream", ["Synthetic", "Upload CSV"], default="Synthetic", key="src", bind="query-params",
        help="Synthetic: y = u·x + Gaussian noise with x uniform in the unit ball. Upload: your own rounds.")
    src = src or "Synthetic"
    c1, c2, c3, c4, c5 = st.columns(5)
    # Whole numbers held in float inputs (format %d): Streamlit 1.67 turns "?d=1e309" into int(inf) and
    # raises OverflowError for an int input, while a float input falls back to its default.
    d = int(c1.number_input("Dimension d", 1.0, 20.0, 2.0, step=1.0, format="%d", key="d", bind="query-params",
                            help="Number of features. The weight-plane picture needs d = 2.",
                            disabled=src != "Synthetic"))
    T = int(c2.number_input("Rounds T", 1.0, 10_000.0, 200.0, step=50.0, format="%d", key="T", bind="query-params",
                            help="Length of the stream.", disabled=src != "Synthetic"))
    noise = float(c3.number_input("Noise σ", 0.0, 3.0, 0.3, step=0.1, key="noise", bind="query-params",
                                  help="Standard deviation of the Gaussian noise added to u·x. "
                                       "With σ = 0 some u has zero loss.", disabled=src != "Synthetic"))
    norm_u = float(c4.number_input("‖u‖ of the true vector", 0.0, 10.0, 1.5, step=0.5, key="norm_u",
                                   bind="query-params", help="Length of the vector u that generates the targets.",
                                   disabled=src != "Synthetic"))
    with c5:
        seed = controls.seed_input()
    upload = None
    if src == "Upload CSV":
        upload = controls.csv_upload("regression", key="wh_upload")

# ---- the stream ------------------------------------------------------------------------------


@st.cache_data(max_entries=32, show_spinner=False)
def synthetic(d: int, T: int, noise: float, norm_u: float, seed: int):
    s = streams.regression(T=T, d=d, seed=seed, noise=noise, norm_u=norm_u)
    return s.X, s.y, s.info["u"]


try:
    if src == "Synthetic":
        X, y, u_true = synthetic(d, T, noise, norm_u, seed)
    else:
        if upload is None:
            st.info("Upload a CSV stream above (or download the template to see the format).")
            st.stop()
        X, y, u_true = np.asarray(upload.X, float), np.asarray(upload.y, float), None
except StreamError as exc:
    controls.show_error(exc, "Stream")
    st.stop()

ball = bounds.check_unit_ball(X)
if not ball.ok:
    st.warning(ball.message() + " The bounds below assume ‖x_t‖ ≤ 1.", icon="⚠️")
    if controls_box.toggle("Rescale x into the unit ball", value=True, key="rescale", bind="query-params",
                 help="Divide every x_t by R = max‖x_t‖. Predictions of Ru on the rescaled stream equal "
                      "those of u on the original, so the same targets stay learnable."):
        X, R_scale = to_unit_ball(X)
        st.caption(f"x divided by R = {R_scale:.4g}: Theorem 1 now applies.")
        ball = bounds.check_unit_ball(X)
T, d = X.shape

@st.cache_data(max_entries=32, show_spinner=False)
def best_eta(X: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    return bounds.widrow_hoff_optimal_eta(X, y)


eta_best, bound_best = best_eta(X, y)
eta = float(controls_box.slider(
    "Learning rate η", 0.01, 0.99, 0.2, step=0.01, key="eta", bind="query-params",
    help="Step size of the update. Theorem 1 needs 0 < η < 1: small η learns slowly (‖u‖²/η), "
         "large η over-reacts to noise (L_u/(1−η))."))
controls_box.caption(f"On this stream the bound is smallest at η* = {eta_best:.3f} (bound {bound_best:.4g}); "
                     "section 3 sweeps every η.")

# ---- the run ---------------------------------------------------------------------------------


@st.cache_data(max_entries=32, show_spinner=False)
def analyse(X: np.ndarray, y: np.ndarray, eta: float) -> dict:
    tr = linear.widrow_hoff(X, y, eta)
    th = bounds.widrow_hoff_theorem(X, y, eta)
    q = proof_quantities(X, y, eta, th.u, trace=tr)
    u_ls = bounds.widrow_hoff_clairvoyant(X, y)
    idx = np.arange(X.shape[0]) if X.shape[0] <= 20_000 else downsample(X.shape[0])
    prefix = np.full(X.shape[0], np.nan)
    prefix[idx] = bounds.widrow_hoff_prefix_min(X, y, eta, idx + 1)
    eta_best, bound_best = best_eta(X, y)
    etas = np.round(np.linspace(0.01, 0.99, 99 if X.shape[0] <= 2000 else 33), 4)
    _, L = widrow_hoff_many(X, y, etas)
    return {
        "trace": tr, "W": np.asarray(tr.weights), "preds": np.asarray(tr.predictions), "losses": np.asarray(tr.losses),
        "cum": np.asarray(tr.cumulative_loss), "u_star": th.u, "L_ustar": th.loss_u, "N_ustar": th.norm_u_sq,
        "bound": th.bound, "u_ls": u_ls, "cum_u": np.cumsum((X @ u_ls - y) ** 2),
        "prefix": prefix, "prefix_idx": idx, "eta_best": eta_best, "bound_best": bound_best,
        "etas": etas, "sweep_loss": L.sum(axis=1), "sweep_bound": bounds.widrow_hoff_min(X, y, etas),
        **{k: np.asarray(q[k]) for k in ("potential", "potential_drop", "residual", "comparator_residual",
                                          "claim_bound")},
    }


try:
    run = analyse(X, y, eta)
except StreamError as exc:
    controls.show_error(exc, "Run")
    st.stop()

L_wh = float(run["cum"][-1])
L_min = float(run["cum_u"][-1])

m1, m2, m3, m4 = st.columns(4)
m1.metric("Widrow-Hoff loss L_WH", f"{L_wh:.4g}", help="Total square loss over the T rounds.")
m2.metric("Theorem 1 bound", f"{run['bound']:.4g}", help="min over u of L_u/(1−η) + ‖u‖²/η at your η.")
m3.metric("Clairvoyant min_u L_u", f"{L_min:.4g}", help="Loss of the least-squares u, chosen knowing every round.")
m4.metric("Bound-minimising η*", f"{run['eta_best']:.3f}",
          help="The η for which Theorem 1's bound is smallest on this stream.")
controls_box.button(
    f"Use η* ≈ {round(run['eta_best'], 2):.2f}", key="use_eta_star",
    on_click=lambda: st.session_state.update(eta=float(min(max(round(run["eta_best"], 2), 0.01), 0.99))),
    help="Set the learning-rate slider to the η that minimises the bound (rounded to the slider's step).")
dl1, dl2 = st.columns([1, 2])
controls.download_run(run["trace"], streams.from_arrays("regression", X, y), bound=run["prefix"],
                      name="widrow_hoff", key="download_run", where=dl1)
with dl2:
    controls.show_code(WidrowHoff, "Show the code (the notes' pseudo-code, line by line)")

# ---- 1. the weight plane ------------------------------------------------------------------------

st.header("1. Watching the weights")
t = controls.round_player(T, key="t")
if d == 2:
    controls.chart(figs.weight_plane(X, y, run["W"], t, u_ls=run["u_ls"], u_star=run["u_star"]), key="plane")
    st.caption(
        "Shaded contours: the total loss $L(\\mathbf w)=\\sum_t(\\mathbf w\\cdot\\mathbf x_t-y_t)^2$ of the whole "
        "stream (darker is lower; hover for values); its minimum is the clairvoyant least-squares "
        "$\\mathbf u$ (star). The orange path is $\\mathbf w_1=\\mathbf 0, \\mathbf w_2, \\dots$: each step "
        "follows one round's gradient, not the whole bowl's, so it zig-zags. The dotted circle around "
        "$\\mathbf u^*$ has radius $\\sqrt{\\Phi_t}$, the potential of the proof.")
else:
    controls.chart(figs.weights_over_time(run["W"], t, u_ls=run["u_ls"]), key="plane")
    st.caption("With d ≠ 2 there is no plane to draw: each coordinate of $\\mathbf w_t$ over rounds, and the "
               "least-squares $\\mathbf u$ it approaches (dotted). Set d = 2 for the weight plane.")
if t >= 1:
    s = t - 1
    st.markdown(
        f"**Round {t}:** $\\hat y_{{{t}}} = \\mathbf w_{{{t}}}\\cdot\\mathbf x_{{{t}}} = {run['preds'][s]:.4f}$, "
        f"$y_{{{t}}} = {y[s]:.4f}$, loss $\\ell_{{{t}}}^2 = {run['losses'][s]:.4f}$; "
        f"$\\mathbf w_{{{t + 1}}} = \\mathbf w_{{{t}}} - {eta:g}\\cdot({run['residual'][s]:.4f})\\,\\mathbf x_{{{t}}}$.")

# ---- 2. cumulative loss against the bound ----------------------------------------------------------

st.header("2. Cumulative loss against Theorem 1")
controls.chart(figs.cumulative_loss(run["cum"], run["cum_u"], run["prefix"], t=t or None),
                key="cumulative")
st.caption(
    "Blue: Widrow-Hoff's total loss after t rounds. Orange: the loss of the least-squares u of the whole "
    "stream, which knew all rounds in advance. Dashed: Theorem 1's bound on the first t rounds, "
    "$\\min_{\\mathbf u} L_{\\mathbf u}(t)/(1-\\eta) + \\|\\mathbf u\\|^2/\\eta$: the blue curve can never cross it. "
    "The gap to the orange curve grows like $\\|\\mathbf u\\|^2/\\eta$ plus an $\\eta/(1-\\eta)$ share of $L_{\\mathbf u}$.")

# ---- 3. choosing eta -------------------------------------------------------------------------------

st.header("3. Choosing η")
controls.chart(figs.eta_sweep(run["etas"], run["sweep_loss"], run["sweep_bound"], eta, run["eta_best"], L_min), key="sweep")
st.caption(
    "Each point is a full run of Widrow-Hoff on this stream with that η (log scale). The dashed bound is "
    "convex in η: ‖u‖²/η punishes small steps, L_u/(1−η) large ones. Its minimum η* balances them; for a "
    "fixed u it is $\\eta^*=\\|\\mathbf u\\|/(\\sqrt{L_{\\mathbf u}}+\\|\\mathbf u\\|)$, where the bound equals "
    "$(\\sqrt{L_{\\mathbf u}}+\\|\\mathbf u\\|)^2$. The real loss is often best at a different η: the bound is a "
    "worst case over all streams.")

# ---- 4. the theorem with this run's numbers -----------------------------------------------------------

st.header("4. Theorem 1, with this run's numbers")
st.markdown(
    "**Theorem 1** (" + SOURCE + "). If $\\|\\mathbf x_t\\|_2 \\le 1$ for all $t$ and $0<\\eta<1$, then "
    "$L_{WH} \\le \\min_{\\mathbf u}\\left(\\frac{L_{\\mathbf u}}{1-\\eta}+\\frac{\\|\\mathbf u\\|_2^2}{\\eta}\\right)$.")
Lu, Nu = run["L_ustar"], run["N_ustar"]
st.latex(
    f"L_{{WH}} = {L_wh:.4f} \\;\\le\\; \\frac{{L_{{\\mathbf u^*}}}}{{1-\\eta}} + \\frac{{\\|\\mathbf u^*\\|^2}}{{\\eta}}"
    f" = \\frac{{{Lu:.4f}}}{{1-{eta:g}}} + \\frac{{{Nu:.4f}}}{{{eta:g}}} = {Lu / (1 - eta):.4f} + {Nu / eta:.4f}"
    f" = {run['bound']:.4f}")
st.markdown(
    f"Here $\\mathbf u^* = ({', '.join(f'{v:.3f}' for v in run['u_star'][:6])}{', …' if d > 6 else ''})$ minimises the "
    f"right-hand side (a ridge regression with $\\lambda=(1-\\eta)/\\eta={(1 - eta) / eta:.3f}$). "
    f"Assumption: {ball.message()} "
    f"At $\\eta^* = {run['eta_best']:.3f}$ the bound would be {run['bound_best']:.4f}."
    + (f" The stream was generated by $\\mathbf u$ with $\\|\\mathbf u\\| = {np.linalg.norm(u_true):.3g}$ "
       f"and noise σ = {noise:g}." if u_true is not None else ""))

# ---- 5. the proof --------------------------------------------------------------------------------

st.header("5. The proof: a potential that pays for every mistake")
st.markdown(
    "Fix $\\mathbf u$ (here $\\mathbf u^*$) and watch $\\Phi_t=\\|\\mathbf w_t-\\mathbf u\\|_2^2$. With "
    "$\\ell_t=\\mathbf w_t\\cdot\\mathbf x_t-y_t$ (learner's error) and $g_t=\\mathbf u\\cdot\\mathbf x_t-y_t$ "
    "(u's error), the **claim** is $\\Phi_{t+1}-\\Phi_t \\le -\\eta\\ell_t^2+\\frac{\\eta}{1-\\eta}g_t^2$: "
    "every unit of the learner's loss lowers the potential by η, every unit of u's loss raises it by at "
    "most η/(1−η). The potential starts at $\\|\\mathbf u\\|^2$ and never goes below 0, so the learner's "
    "loss is paid for by $\\|\\mathbf u\\|^2$ and by u's loss.")
phi = run["potential"]
telescoped = phi[0] + np.r_[0.0, np.cumsum(run["claim_bound"])]
controls.chart(figs.potential(phi, run["potential_drop"], run["claim_bound"], telescoped, t=t or None), key="potential")
st.caption(
    "Top: the potential (purple) stays under the sum of the claim's bounds (dashed), which starts at "
    "Φ₁ = ‖u*‖². Bottom: every round's actual change (dots) lies on or below its bound (the red tick above it); the gap is "
    "the slack of the two inequalities (7) and (10) of the proof.")
if t >= 1:
    s = t - 1
    st.markdown(
        f"**Round {t}:** $\\ell_{{{t}}} = {run['residual'][s]:.4f}$, $g_{{{t}}} = {run['comparator_residual'][s]:.4f}$, "
        f"$\\Phi_{{{t + 1}}}-\\Phi_{{{t}}} = {run['potential_drop'][s]:.4f} \\le "
        f"-{eta:g}\\cdot{run['residual'][s] ** 2:.4f} + \\frac{{{eta:g}}}{{{1 - eta:.2f}}}\\cdot"
        f"{run['comparator_residual'][s] ** 2:.4f} = {run['claim_bound'][s]:.4f}$.")
with st.expander("The telescoping sum with this run's numbers", expanded=True):
    total_drop = float(phi[-1] - phi[0])
    st.latex(
        "\\begin{aligned}"
        f"-\\|\\mathbf u^*\\|^2 &= -\\Phi_1 = {-phi[0]:.4f} \\\\"
        f"&\\le \\Phi_{{T+1}}-\\Phi_1 = \\textstyle\\sum_{{t=1}}^{{{T}}}(\\Phi_{{t+1}}-\\Phi_t) = {total_drop:.4f} \\\\"
        f"&\\le -\\eta L_{{WH}}+\\tfrac{{\\eta}}{{1-\\eta}}L_{{\\mathbf u^*}}"
        f" = -{eta:g}\\cdot {L_wh:.4f} + \\tfrac{{{eta:g}}}{{{1 - eta:.2f}}}\\cdot {Lu:.4f}"
        f" = {-eta * L_wh + eta / (1 - eta) * Lu:.4f}"
        "\\end{aligned}")
    st.markdown(
        "Dividing by $-\\eta$ flips the inequality and gives Theorem 1: "
        "$L_{WH}\\le \\frac{L_{\\mathbf u}}{1-\\eta}+\\frac{\\|\\mathbf u\\|^2}{\\eta}$. "
        "The per-round claim comes from expanding $\\|\\mathbf w_t-\\mathbf u-\\eta\\ell_t\\mathbf x_t\\|^2$, "
        "using $\\|\\mathbf x_t\\|\\le1$ (line 7) and $ab\\le(a^2+b^2)/2$ with $a=g_t/\\sqrt{1-\\eta}$, "
        "$b=\\ell_t\\sqrt{1-\\eta}$ (line 10).")
    st.caption(
        "Reading the notes: the scribe's algorithm box lost its minus signs ('w_t η(w_t·x_t y_t)x_t'); "
        "Section 1.1 writes the rule in full, which is what runs here. Motivation 2's objective must use the "
        "*squared* distance ‖w_{t+1} − w_t‖², as Section 1.3 does; line (15)'s sum runs to T.")

# ---- 6. online-to-batch ------------------------------------------------------------------------------

st.header("6. From online to batch: averaging the weights")
st.markdown(
    "Given an i.i.d. sample of size $m$, run Widrow-Hoff once over it and output the **average** "
    "$\\mathbf v=\\frac1m\\sum_{t=1}^m\\mathbf w_t$. **Theorem 2**: "
    "$\\mathbb E_S[R_{\\mathbf v}]\\le\\min_{\\mathbf u}\\left(\\frac{R_{\\mathbf u}}{1-\\eta}+"
    "\\frac{\\|\\mathbf u\\|^2}{\\eta m}\\right)$ with the risk $R_{\\mathbf v}=\\mathbb E[(\\mathbf v\\cdot\\mathbf x-y)^2]$: "
    "each $\\mathbf w_t$ is tested on a fresh point $(\\mathbf x_t,y_t)$, so the online loss estimates risk.")
oc1, oc2 = st.columns(2)
m_max = int(oc1.select_slider("Largest sample size m", [50, 100, 200, 500, 1000, 2000], value=500, key="m_max",
                              bind="query-params", help="Sample sizes m = 1 … this value are shown."))
repeats = int(oc2.select_slider("Samples averaged", [10, 20, 50, 100, 200], value=50, key="repeats",
                                bind="query-params",
                                help="Theorem 2 bounds the mean risk over random samples; this many independent "
                                     "samples estimate that mean (the band is ±2 standard errors)."))


@st.cache_data(max_entries=16, show_spinner=False)
def batch_curve(X: np.ndarray, y: np.ndarray, u_true, noise: float, eta: float, m_max: int, repeats: int,
                seed: int) -> dict:
    if u_true is not None:
        d = len(u_true)
        held_seed = int(np.random.default_rng([seed, 511]).integers(2**32))
        held = streams.regression(T=min(10_000, streams.MAX_CELLS // d), d=d, seed=held_seed, noise=noise, u=u_true)
        c = o2b.learning_curve(o2b.regression_sampler(u_true, noise), o2b.QuadraticRisk.from_sample(held.X, held.y),
                               eta, m_max, repeats, seed)
        exact = o2b.QuadraticRisk.regression_stream(u_true, noise)
        c["bound"] = exact.theorem2(eta, c["m"])
        c["best_risk"] = exact(np.asarray(u_true, float))
        c["n_test"] = held.T
    else:
        pop = o2b.QuadraticRisk.from_sample(X, y)
        c = o2b.learning_curve(o2b.bootstrap_sampler(X, y), pop, eta, m_max, repeats, seed)
        c["n_test"] = X.shape[0]
    return {k: np.asarray(v) for k, v in c.items() if k not in ("risk_avg", "risk_last")}


try:
    curve = batch_curve(X, y, None if u_true is None else np.asarray(u_true), noise, eta, m_max, repeats, seed)
except StreamError as exc:
    controls.show_error(exc, "Online-to-batch")
    st.stop()
controls.chart(figs.online_to_batch(curve), key="o2b")
if u_true is not None:
    st.caption(
        f"Blue: the risk of the averaged vector, measured on a held-out sample of {int(curve['n_test']):,} points "
        f"from the same distribution and averaged over {repeats} independent training samples (band: ±2 s.e.). "
        "Orange: the last iterate $\\mathbf w_{m+1}$. Dashed: Theorem 2's bound, with the exact risk "
        "$R_{\\mathbf u}=\\|\\mathbf u-\\mathbf u_{true}\\|^2/(d+2)+\\sigma^2$ of this distribution. Green: the noise "
        "floor σ², the best any vector can do. The average still carries the early, poor iterates "
        "(starting with $\\mathbf w_1=\\mathbf 0$), so it can lag the last iterate; what it buys is the guarantee: "
        "Theorem 2 bounds the average, and the notes prove nothing about the last iterate.")
else:
    st.caption(
        f"Here the distribution D is 'pick one of your {int(curve['n_test']):,} rows at random', so risks are exact "
        f"means over your rows; {repeats} samples drawn with replacement (band: ±2 s.e.). Dashed: Theorem 2's bound.")
mi = m_max - 1
st.latex(
    f"m={m_max}:\\quad \\widehat{{\\mathbb E}}_S[R_{{\\mathbf v}}] = {curve['mean_avg'][mi]:.4f} \\pm {2 * curve['se_avg'][mi]:.4f}"
    f"\\;\\le\\; \\min_{{\\mathbf u}}\\Big(\\frac{{R_{{\\mathbf u}}}}{{1-{eta:g}}}+\\frac{{\\|\\mathbf u\\|^2}}{{{eta:g}\\cdot{m_max}}}\\Big)"
    f" = {curve['bound'][mi]:.4f}")

# ---- 7. additive vs multiplicative ------------------------------------------------------------------

st.header("7. Additive vs multiplicative: exponentiated gradient")
st.markdown(
    "Motivation 2 picks $\\mathbf w_{t+1}$ to trade the new loss against a *distance* to $\\mathbf w_t$. "
    "The squared Euclidean distance gives Widrow-Hoff's additive step; the relative entropy between "
    "probability vectors gives **exponentiated gradient** (EG), a multiplicative step: "
    "$w_{t+1,i} = w_{t,i}\\,e^{-\\eta\\,\\partial L/\\partial w_i}/Z_t$ with "
    "$\\partial L/\\partial w_i = 2(\\hat y_t - y_t)x_{t,i}$.\n\n"
    "| Additive | Multiplicative |\n|---|---|\n| Support vector machine | AdaBoost |\n"
    "| Perceptron | Winnow / Weighted Majority |\n| Gradient descent (Widrow-Hoff) | Exponentiated gradient |")
ec1, ec2 = st.columns(2)
n_eg = int(ec1.select_slider("Features n", [10, 30, 100, 300, 1000], value=100, key="eg_n", bind="query-params",
                             help="x_t is uniform in [0,1]^n and y_t = u·x_t + noise with u spread over 2 features."))
eta_eg = float(ec2.select_slider("EG learning rate", [0.1, 0.25, 0.5, 1.0, 2.0, 4.0], value=1.0, key="eg_eta",
                                 bind="query-params", help="η of the multiplicative update (the notes give no bound "
                                                           "for EG, so there is no optimal η to mark)."))


@st.cache_data(max_entries=16, show_spinner=False)
def eg_vs_wh(n: int, eta_eg: float, seed: int) -> dict:
    s = simplex_stream(T=300, n=n, k=2, noise=0.05, seed=seed)
    eg = linear.exponentiated_gradient(s.X, s.y, eta_eg)
    Xs, R = to_unit_ball(s.X)
    eta_wh, _ = bounds.widrow_hoff_optimal_eta(Xs, s.y)
    eta_wh = min(max(eta_wh, 0.01), 0.99)
    wh = linear.widrow_hoff(Xs, s.y, eta_wh)
    rounds = np.arange(1, s.T + 1)
    return {"eg": np.asarray(eg.cumulative_loss), "wh": np.asarray(wh.cumulative_loss),
            "u": np.cumsum((s.X @ s.info["u"] - s.y) ** 2), "bound": bounds.widrow_hoff_prefix_min(Xs, s.y, eta_wh, rounds),
            "eta_wh": eta_wh, "R": R, "mass": float(eg.weights[-1][s.info["relevant"]].sum())}


try:
    cmp_ = eg_vs_wh(n_eg, eta_eg, seed)
except StreamError as exc:
    controls.show_error(exc, "EG")
    st.stop()
controls.chart(figs.additive_vs_multiplicative(cmp_["eg"], cmp_["wh"], cmp_["u"], cmp_["bound"]), key="eg")
st.caption(
    f"A stream of 300 rounds whose targets come from a probability vector on 2 of the {n_eg} features. "
    f"Widrow-Hoff needs ‖x‖ ≤ 1, so it sees x/{cmp_['R']:.3g} and runs at its bound-minimising η = {cmp_['eta_wh']:.3f}; "
    f"its bound (dashed) grows with ‖u‖²·max‖x‖², which grows with n. EG works on the simplex directly; after "
    f"300 rounds it puts {cmp_['mass']:.0%} of its weight on the 2 relevant features. Raise n: EG's loss "
    "barely moves (its known bounds, beyond these notes, grow like log n), Widrow-Hoff's grows with n.")
