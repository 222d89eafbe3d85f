"""Perceptron: margin geometry, Novikoff's bound and its proof, round by round."""

import numpy as np
import streamlit as st

from olcore import StreamError, bounds, linear, streams
from olapp import controls, state
from olapp.figures import linear as figs

st.title("Perceptron")
st.markdown(
    "The Perceptron keeps one weight vector **w** and predicts the side of the hyperplane "
    "**w · x = 0** a point falls on. It changes **w** only when it is wrong, by adding the "
    "misclassified point times its label: **w ← w + y x**. Each mistake tilts the hyperplane "
    "towards the point. If some unit direction **v** separates the labels with margin **γ** and "
    "every point lies within radius **R**, Novikoff's theorem says the Perceptron makes at most "
    "**(R/γ)²** mistakes, however long the stream runs and however often it is replayed."
)
presenter = state.presenter_mode()

# ---- lecture presets -------------------------------------------------------------------------
# Each sets the sidebar's widgets (by key); its note names the lecture (seed file) and the claim.
PRESETS = [
    controls.Preset(
        "Perceptron at margin γ (Novikoff)",
        "UCL notes (seeds/000_8a17f779656f0ef2.txt), Perceptron Bound [Novikoff]: on a stream separated "
        "by a unit v with margin γ = 0.1 inside radius R = 1, the Perceptron makes at most (R/γ)² = 100 "
        "mistakes, however long the stream.",
        {"source": "Generated", "n": 200, "gamma": 0.1, "noise": 0.0, "seed": 0, "epochs": 1}),
    controls.Preset(
        "Cycle until it converges",
        "seeds/000 (\"How can we use the Perceptron to find a w that separates S? How long will it take?\") and "
        "seeds/003 (cycled over a separable stream it stops after finitely many updates): a thin margin γ = 0.03, "
        "replayed 12 times; it stops erring during pass 9, far inside (R/γ)² ≈ 1111.",
        {"source": "Generated", "n": 100, "gamma": 0.03, "noise": 0.0, "seed": 1, "epochs": 12}),
    controls.Preset(
        "Noisy labels: the non-separable bound",
        "Cesa-Bianchi's slides (seeds/003_922d87807e469abc.txt), generalized Perceptron convergence theorem: "
        "with 10% of the labels flipped no v separates the stream, yet M ≤ L_u + R²‖u‖² + R‖u‖√L_u "
        "for every u (u's hinge loss L_u pays for the flips).",
        {"source": "Generated", "n": 200, "gamma": 0.15, "noise": 0.1, "seed": 0, "epochs": 1}),
    controls.Preset(
        "Noisy labels, replayed: it never converges",
        "seeds/003 (\"What if the stream is not linearly separable?\"): with 5% flipped labels every pass "
        "makes mistakes again; the bound keeps growing with L_u, so it still holds after every pass.",
        {"source": "Generated", "n": 200, "gamma": 0.15, "noise": 0.05, "seed": 0, "epochs": 5}),
    controls.Preset(
        "You are the adversary (type the points)",
        "seeds/000, Novikoff: whatever points you type, the mistakes stay below (R/γ)² measured from your "
        "points, as long as some line through the origin separates them. Try to force many mistakes.",
        {"source": "Typed", "epochs": 1}),
]
PRESET_KEY = "perceptron_preset"



# ---- controls ------------------------------------------------------------------------------
with st.sidebar:
    controls.preset_selector(PRESETS, key=PRESET_KEY)
    st.subheader("Stream")
    source = st.segmented_control(
        "Source", ["Generated", "Typed", "Uploaded"], default="Generated", key="source", bind="query-params",
        help="Generated: points in the plane separated by a random unit vector v with margin γ. "
             "Typed: edit a table of points yourself (you are the adversary). "
             "Uploaded: your own CSV stream (features x1, x2, ..., then the label y in {-1, +1}).") or "Generated"
    if source == "Uploaded":
        uploaded = controls.csv_upload("linear", key="upload")
    elif source == "Typed":
        st.caption("One row per round: the point (x1, x2) and its label y (-1 or +1). Add, edit or delete rows; "
                   "the rounds are played top to bottom.")
        typed = st.data_editor(
            {"x1": [0.8, -0.6, 0.1, -0.2, 0.9, -0.9], "x2": [0.3, -0.2, 0.9, -0.8, -0.4, 0.5],
             "y": [1, -1, 1, -1, 1, -1]},
            num_rows="dynamic", key="typed", width="stretch")
    else:
        n = st.slider("Points n", 10, 2000, 60, step=10, key="n", bind="query-params",
                      help="Number of rounds in one pass: one point arrives per round.")
        gamma = st.slider("Margin γ", 0.02, 0.5, 0.15, step=0.01, key="gamma", bind="query-params",
                          help="Every point lies at distance at least γ from the separating line (R = 1). "
                               "Novikoff's bound is (R/γ)² = 1/γ².")
        noise = st.slider("Label noise", 0.0, 0.3, 0.0, step=0.01, key="noise", bind="query-params",
                          help="Each label is flipped with this probability. With flips the stream is usually "
                               "not separable and Novikoff's assumption fails; the page then shows the "
                               "non-separable bound for the best comparator u found.")
        seed = controls.seed_input()
    epochs = st.slider("Epochs (passes)", 1, 20, 1, key="epochs", bind="query-params",
                       help="How many times the stream is replayed. On a separable stream the mistakes stop "
                            "growing after at most (R/γ)² of them: the Perceptron has converged.")


@st.cache_data(max_entries=32, show_spinner=False)
def generate(n: int, gamma: float, noise: float, seed: int):
    return streams.separable(T=n, d=2, gamma=gamma, R=1.0, noise=noise, seed=seed)


@st.cache_data(max_entries=32, show_spinner=False)
def run(X: np.ndarray, y: np.ndarray, v: np.ndarray | None, epochs: int):
    """The run and every number the page shows (a pure function of the stream and epochs)."""
    if v is None:   # uploaded: try the direction a long Perceptron run ends with
        w_end = linear.perceptron(X, y, epochs=min(50, max(1, 200_000 // len(X))))
        w_end = w_end.weights_at(w_end.T)
        v = w_end / np.linalg.norm(w_end) if np.linalg.norm(w_end) > 0 else np.eye(X.shape[1])[0]
    trace = linear.perceptron(X, y, epochs=epochs, v=v)
    R = bounds.radius(X)
    gamma_v = bounds.margin(X, y, v)
    out = {"trace": trace, "R": R, "v": v, "gamma": gamma_v, "separable": gamma_v > 0}
    if gamma_v > 0:
        u = v / gamma_v                       # y u.x >= 1: zero hinge loss, ||u|| = 1/gamma
    else:
        w_fin = trace.weights_at(trace.T)
        dirs = [v] + ([w_fin] if np.linalg.norm(w_fin) > 0 else [])
        u = bounds.best_u_nonseparable(X, y, directions=dirs)["u"]
    hinge_u = np.maximum(0.0, 1.0 - y * (X @ u))
    out["u"] = u
    out["L_u_prefix"] = np.cumsum(np.tile(hinge_u, epochs))      # L_u over rounds 1..t of the cycled stream
    out["L_u_pass"] = float(hinge_u.sum())
    out["sq_L_u_prefix"] = np.cumsum(np.tile(hinge_u ** 2, epochs))
    return out


@st.cache_data(max_entries=32, show_spinner=False)
def compare(X: np.ndarray, y: np.ndarray, epochs: int, C: float, eta: float):
    runs = {"Perceptron": linear.perceptron(X, y, epochs=epochs),
            "PA": linear.passive_aggressive(X, y, "PA", epochs=epochs),
            "PA-I": linear.passive_aggressive(X, y, "PA-I", C=C, epochs=epochs),
            "PA-II": linear.passive_aggressive(X, y, "PA-II", C=C, epochs=epochs),
            "OGD": linear.ogd_hinge(X, y, eta=eta, epochs=epochs)}
    return {k: (np.cumsum(tr.mistakes), tr.weights_at(tr.T), tr.n_mistakes) for k, tr in runs.items()}


try:
    if source == "Uploaded":
        if uploaded is None:
            st.info("Upload a CSV stream in the sidebar (a template is there to download), "
                    "or switch the source to Generated.")
            st.stop()
        stream = uploaded
        X, y, v0 = uploaded.X, uploaded.y.astype(float), None
    elif source == "Typed":
        tab = {c: [np.nan if val is None else val for val in typed[c]] for c in ("x1", "x2", "y")}
        stream = streams.from_arrays("linear", np.column_stack([tab["x1"], tab["x2"]]), tab["y"])
        X, y, v0 = stream.X, stream.y.astype(float), None
    else:
        stream = generate(int(n), float(gamma), float(noise), int(seed))
        X, y, v0 = stream.X, stream.y.astype(float), stream.info["v"]
    res = run(X, y, v0, int(epochs))
except StreamError as exc:
    controls.show_error(exc)
    st.stop()

trace, R, v, g = res["trace"], res["R"], res["v"], res["gamma"]
T1, d = X.shape
separable = res["separable"]
u = res["u"]
norm_u = float(np.linalg.norm(u))
n_epochs = trace.T // T1

shown_preset = controls.matching_preset(PRESETS, PRESET_KEY)  # now the widgets exist
if presenter and shown_preset is not None:   # the sidebar (and its note) is hidden when presenting
    st.info(f"**{shown_preset.name}**: {shown_preset.note}", icon=":material/school:")

# ---- the run, round by round ----------------------------------------------------------------
st.subheader("Watch it learn")
t = controls.round_player(trace.T, key="t", events=trace.mistakes, event_name="mistake")
M_t = int(trace.extras["M"][t])
st.markdown(f"After **{t}** of {trace.T} rounds: **{M_t}** mistakes "
            f"(of {trace.n_mistakes} in the whole run).")

if d == 2:
    w_t = trace.weights_at(t)
    last = (t - 1) % T1 if t > 0 else None
    last_mistake = bool(trace.mistakes[t - 1]) if t > 0 else False
    n_seen = min(t, T1)
    path = trace.weight_table[: trace.weight_index[t] + 1]
    arcs = figs.consistent_arcs(X[:n_seen], y[:n_seen])
    upd = (trace.weights_at(t - 1), w_t) if last_mistake else None
    c1, c2 = st.columns(2)
    with c1:
        controls.chart(figs.data_space(X, y, n_seen, w_t, R=R, v=v if separable else None,
                                       gamma=g if separable else None, last=last, last_mistake=last_mistake,
                                       presenter=presenter), key="geom", filename="perceptron_data_space")
        st.caption("Filled points have arrived; faded ones are still to come. The blue line is the current "
                   "hyperplane, the arrow its normal w/‖w‖. The green dashed line is the separator v, the "
                   "shaded band its margin ±γ; the dotted circle has radius R. A red ring marks a mistake.")
    with c2:
        controls.chart(figs.weight_space(path, arcs=arcs, last_update=upd, v=v if separable else None,
                                         presenter=presenter), key="wspace", filename="perceptron_weight_space")
        st.caption("Each dot is w after a mistake; the red arrow is the last update +y_t x_t. The green "
                   "wedge holds every direction that classifies all points seen so far correctly: as "
                   "points arrive it narrows, and w is pulled inside it.")
else:
    st.info(f"This stream has d = {d} features: the plane pictures need d = 2. Mistakes and the proof are below.")

# ---- mistakes against the bound --------------------------------------------------------------
st.subheader("Mistakes against the bound")
cum_m = np.cumsum(trace.mistakes)
a = R * norm_u
pass_len = T1 if n_epochs > 1 else None
if separable:
    nov = bounds.perceptron(R, g)
    bound_run = np.full(trace.T, nov)
    # A thin margin puts the bound far above the count: a linear axis would flatten the staircase.
    log_y = nov > 15 * max(trace.n_mistakes, 1)
    fig = figs.mistakes_compare({"Perceptron": cum_m}, {"(R/γ)²": nov}, title="Mistakes", log_y=log_y,
                                current_round=t, pass_length=pass_len, presenter=presenter)
    controls.chart(fig, key="mistakes", filename="perceptron_mistakes")
    st.caption(f"The staircase counts mistakes; the dashed line is Novikoff's (R/γ)² = {nov:.4g}, measured "
               f"from this stream (R = {R:.4g}, γ = {g:.4g}). The staircase can never cross it, whatever the "
               "number of epochs."
               + (" Log scale, since the bound is far above the count: the staircase starts at the first "
                  "mistake, and a flat stretch is a run of rounds without mistakes." if log_y else "")
               + (" Dotted vertical lines mark the start of each new pass over the stream." if pass_len else ""))
else:
    Lp = res["L_u_prefix"]
    nsb = Lp + a * a + a * np.sqrt(Lp)
    bound_run = nsb
    fig = figs.mistakes_compare({"Perceptron": cum_m}, {"L_u + R²‖u‖² + R‖u‖√L_u": nsb},
                                title="Mistakes (non-separable stream)", current_round=t, pass_length=pass_len,
                                presenter=presenter)
    controls.chart(fig, key="mistakes", filename="perceptron_mistakes")
    st.warning("This stream is **not separable** by v (label noise flipped some labels): Novikoff's "
               "assumption y_t v·x_t ≥ γ > 0 fails and (R/γ)² says nothing. The bound shown is the "
               "non-separable one, for the comparator u with the smallest bound found.")
    st.caption(f"The dashed curve is the bound after t rounds, with L_u the hinge loss of u on those rounds "
               f"(‖u‖ = {norm_u:.4g}, R = {R:.4g}). It grows with every round u itself pays for."
               + (" Dotted vertical lines mark the start of each new pass over the stream." if pass_len else ""))

if n_epochs > 1:
    per_pass = trace.mistakes.reshape(n_epochs, T1).sum(axis=1)
    clean = np.flatnonzero(per_pass == 0)
    counts = ", ".join(str(int(c)) for c in per_pass)
    if clean.size:
        e0 = int(clean[0])            # 0-based: the first pass with no mistake
        last_m = np.flatnonzero(trace.mistakes)
        where_ = (f" The last mistake was in round {int(last_m[-1]) + 1} (pass {e0})." if last_m.size else "")
        st.success(f"**Converged.** Mistakes per pass: {counts}. Pass {e0 + 1} makes no mistake, so w did not "
                   f"move during it and classifies every point of the stream correctly: from then on the "
                   f"Perceptron never errs again.{where_} Total M = {trace.n_mistakes} updates"
                   + (f", within (R/γ)² = {bounds.perceptron(R, g):.4g}." if separable else "."),
                   icon=":material/check_circle:")
    elif separable:
        st.info(f"Mistakes per pass: {counts}. Every pass so far has made a mistake; on a separable stream "
                f"the total cannot pass (R/γ)² = {bounds.perceptron(R, g):.4g}, so more passes end in a pass "
                "without mistakes.", icon=":material/replay:")
    else:
        st.info(f"Mistakes per pass: {counts}. No pass is free of mistakes: with flipped labels no hyperplane "
                "classifies the whole stream, so the Perceptron never converges; it keeps paying roughly the "
                "same number of mistakes per pass, and the bound grows with L_u as fast.", icon=":material/replay:")
with st.container(key="controls"):   # hidden with its notes in presenter mode
    controls.download_run(trace, stream, bound=bound_run, name="perceptron_run", key="download_perceptron")

st.markdown("**The theorem, with this run's numbers**")
if separable:
    st.latex(r"M \le \left(\frac{R}{\gamma}\right)^2 = \left(\frac{%.4g}{%.4g}\right)^2 = %.4g"
             % (R, g, nov))
    st.markdown(f"This run: **M = {trace.n_mistakes}** mistakes in {trace.T} rounds.")
    st.caption("Novikoff (seeds/000_8a17f779656f0ef2.txt, Perceptron Bound): if ‖x_t‖ ≤ R and a unit v has "
               "y_t (v·x_t) ≥ γ for all t, the Perceptron makes at most (R/γ)² mistakes.")
else:
    L_all = float(res["L_u_prefix"][-1])
    st.latex(r"M \le L_{\mathbf u} + R^2\|\mathbf u\|^2 + R\|\mathbf u\|\sqrt{L_{\mathbf u}}"
             r" = %.4g + %.4g + %.4g = %.4g"
             % (L_all, a * a, a * np.sqrt(L_all), L_all + a * a + a * np.sqrt(L_all)))
    st.markdown(f"This run: **M = {trace.n_mistakes}** mistakes in {trace.T} rounds "
                f"(u found: ‖u‖ = {norm_u:.4g}, R = {R:.4g}).")
    st.caption("Cesa-Bianchi (seeds/003_922d87807e469abc.txt, relative mistake bound), for every u; "
               "L_u = Σ_t [1 − y_t u·x_t]₊ is u's hinge loss. The notes state it for ‖x_t‖ = 1; with radius "
               "R the same proof gives the R factors.")

controls.show_code(linear.Perceptron, "Show the code: Perceptron (reference class)")

# ---- the proof -----------------------------------------------------------------------------
st.subheader("The proof: ‖w‖ is squeezed")
K = int(trace.weight_index[t]) + 1
tab = trace.weight_table[:K]
Ms = np.arange(K, dtype=float)
norms = np.linalg.norm(tab, axis=1)
uh = u / norm_u if norm_u > 0 else v
if separable:
    wv = tab @ v
    lower = Ms * g
else:
    wv = tab @ uh
    mist_rounds = np.flatnonzero(trace.mistakes)[: K - 1]
    Lm = np.concatenate([[0.0], res["L_u_prefix"][mist_rounds]])
    lower = (Ms - Lm) / max(norm_u, 1e-300)
controls.chart(figs.norm_proof(Ms, norms, wv, lower, R=R, gamma=g if separable else None,
                               presenter=presenter), key="proof", filename="perceptron_proof")
if separable:
    st.caption("Each mistake adds at most R² to ‖w‖² (the score y w·x was ≤ 0), so ‖w‖ ≤ √M·R; and it adds "
               "at least γ to w·v, so ‖w‖ ≥ w·v ≥ M·γ. A line cannot stay above a square root for long: "
               f"the two bounds meet at M = (R/γ)² = {(R / g) ** 2:.4g}, so there can be no more mistakes.")
else:
    st.caption("Without a margin the lower bound is w·u ≥ M − L_u: each mistake adds 1 − ℓ_t(u) to w·u. "
               "With ‖w‖ ≤ √M·R it gives the non-separable bound above.")

# ---- other learners on the same stream ----------------------------------------------------------
st.subheader("Perceptron against PA, PA-I, PA-II and OGD")
st.markdown("The same stream, five update rules. The Perceptron moves only on mistakes and by a fixed step; "
            "the passive-aggressive family also moves on correct predictions with margin below 1, by just "
            "enough (PA), capped by C (PA-I), or softened by 1/(2C) (PA-II); OGD takes a fixed step η on "
            "the hinge loss.")
cc1, cc2 = st.columns(2)
C = cc1.select_slider("C (PA-I, PA-II)", options=[0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0], value=1.0, key="C",
                      bind="query-params",
                      help="Aggressiveness: PA-I caps each step at C; PA-II adds 1/(2C) to ‖x‖² in the step's "
                           "denominator (the original paper's constant; the slide in seeds/003 writes 1/C).")
eta = cc2.select_slider("η (OGD)", options=[0.01, 0.03, 0.1, 0.3, 1.0, 3.0], value=0.1, key="eta",
                        bind="query-params", help="OGD's fixed learning rate on the hinge loss.")
try:
    cmp = compare(X, y, int(epochs), float(C), float(eta))
except StreamError as exc:
    controls.show_error(exc)
    st.stop()
Lp = res["L_u_prefix"]
m_t = np.arange(1, len(Lp) + 1)
bnds = {}
if separable:
    bnds["(R/γ)² (Perceptron)"] = bounds.perceptron(R, g)
    bnds["‖u‖²R² (PA)"] = bounds.passive_aggressive_separable(norm_u, R)
else:
    bnds["L_u + R²‖u‖² + R‖u‖√L_u (Perceptron)"] = Lp + a * a + a * np.sqrt(Lp)
bnds["max(R², 1/C)(‖u‖² + 2C·L_u) (PA-I)"] = max(R * R, 1 / C) * (norm_u ** 2 + 2 * C * Lp)
bnds["(R² + 1/(2C))(‖u‖² + 2C·Σℓ_u²) (PA-II)"] = (R * R + 1 / (2 * C)) * (norm_u ** 2 + 2 * C * res["sq_L_u_prefix"])
bnds["L_u + ‖u‖²/(2η) + ηtR²/2 (OGD)"] = Lp + norm_u ** 2 / (2 * eta) + eta * m_t * R * R / 2
controls.chart(figs.mistakes_compare({k: c for k, (c, _, _) in cmp.items()}, bnds, current_round=t,
                                     log_y=True, height=480, presenter=presenter), key="compare",
               filename="perceptron_vs_pa_ogd")
st.caption("Solid: each learner's mistakes (log scale: a curve appears at its first mistake); dashed, "
           "same colour: its bound with the same comparator u "
           f"(‖u‖ = {norm_u:.3g}). OGD's bound is on its hinge loss, which is at least its number of mistakes. "
           + ("" if separable else "PA without a cap has no mistake bound on a non-separable stream, so none is drawn."))
if d == 2:
    controls.chart(figs.hyperplanes_compare(X, y, {k: w for k, (_, w, _) in cmp.items()}, R=R,
                                            presenter=presenter), key="planes", filename="final_hyperplanes")
    st.caption("Where each learner's hyperplane ends after the whole run: " +
               ", ".join(f"{k} {m} mistakes" for k, (_, _, m) in cmp.items()) + ".")
code1, code2 = st.columns(2)
with code1:
    controls.show_code(linear.PassiveAggressive, "Show the code: PA, PA-I, PA-II (reference class)")
with code2:
    controls.show_code(linear.OGDHinge, "Show the code: OGD on the hinge loss (reference class)")
