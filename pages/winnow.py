"""Winnow: learning a disjunction when irrelevant attributes abound."""

import numpy as np
import streamlit as st

from olcore import StreamError, bounds, linear, streams
from olapp import controls, state
from olapp.figures import linear as figs

st.title("Winnow")
st.markdown(
    "The label is an OR of **k** of the **N** boolean attributes, and the learner does not know "
    "which. Winnow gives every attribute weight 1 and predicts 1 when the weights of the active "
    "attributes sum to more than the threshold **θ = N**. On a missed positive it **doubles** the "
    "weights of the active attributes; on a false positive it **halves** them. Relevant attributes "
    "are never halved (a negative example has none of them on), so they climb quickly, while the "
    "many irrelevant ones are pushed down. The mistakes grow only with **log N**: "
    "at most 2 + 3k(log₂N + 1), where the Perceptron's grow with N."
)
presenter = state.presenter_mode()

# ---- lecture presets -------------------------------------------------------------------------
# Each sets the sidebar's widgets (by key); its note names the lecture (seed file) and the claim.
PRESETS = [
    controls.Preset(
        "Winnow with k = 3 of N = 1000",
        "CMU 16-831 notes (seeds/001_c4932eda687fdb6a.txt, section 4.4): labels are an OR of k = 3 of "
        "N = 1000 attributes, and Winnow makes fewer than 2 + 3k(log₂N + 1) ≈ 100.7 mistakes, however long "
        "the stream; after a few dozen it stops erring.",
        {"source": "Generated", "N": 1000, "k": 3, "T": 2500, "alpha": 2.0, "seed": 0}),
    controls.Preset(
        "Ten times more attributes: k = 3 of N = 10⁴",
        "seeds/001, section 4.4: the bound grows with log N only, so ten times more irrelevant attributes "
        "add just 3k·log₂10 ≈ 30 to it (≈ 130.6); the Perceptron's bound on the same task grows tenfold.",
        {"source": "Generated", "N": 10000, "k": 3, "T": 500, "alpha": 2.0, "seed": 0}),
    controls.Preset(
        "More relevant attributes: k = 10 of N = 1000",
        "seeds/001, section 4.4: the bound is linear in k, 2 + 3k(log₂N + 1) ≈ 331 for k = 10; each relevant "
        "weight is promoted at most log₂N + 1 times before it alone crosses θ = N.",
        {"source": "Generated", "N": 1000, "k": 10, "T": 2500, "alpha": 2.0, "seed": 0}),
    controls.Preset(
        "The proof's potential (k = 3 of N = 100)",
        "seeds/001, equations (21)-(27): Φ = Σ w starts at N, gains at most N per promotion, loses more than "
        "N/2 per demotion and stays positive, so demotions are fewer than 2 + 2m⁺. Step through the mistakes.",
        {"source": "Generated", "N": 100, "k": 3, "T": 500, "alpha": 2.0, "seed": 0}),
    controls.Preset(
        "Promotion factor α = 3",
        "seeds/001 uses α = 1 + β = 2; the same potential argument with a general α gives "
        "Nα/((α−1)θ) + (α+1)k(log_α θ + 1) (k = 3, N = 100, θ = N).",
        {"source": "Generated", "N": 100, "k": 3, "T": 500, "alpha": 3.0, "seed": 0}),
]
PRESET_KEY = "winnow_preset"



N_OPTIONS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
with st.sidebar:
    controls.preset_selector(PRESETS, key=PRESET_KEY)
    st.subheader("Stream")
    source = st.segmented_control(
        "Source", ["Generated", "Uploaded"], default="Generated", key="source", bind="query-params",
        help="Generated: random examples labelled by an OR of k of the N attributes. "
             "Uploaded: your own CSV of 0/1 attributes and 0/1 labels.") or "Generated"
    if source == "Uploaded":
        uploaded = controls.csv_upload("disjunction", key="winnow_upload")
        st.caption("Winnow's bound needs a k-literal disjunction that labels every row. The page looks for "
                   "one (attributes never on in a negative row, then a greedy cover of the positive rows); "
                   "if there is none, the theorem does not apply and no bound is drawn.")
    else:
        N = st.select_slider("Attributes N", options=N_OPTIONS, value=100, key="N", bind="query-params",
                             help="Number of boolean attributes, on a log scale up to 10⁴. Only k of them matter.")
        k = st.slider("Relevant attributes k", 1, 10, 3, key="k", bind="query-params",
                      help="The label is the OR of k attributes chosen at random.")
        T = st.slider("Rounds T", 50, 3000, 500, step=50, key="T", bind="query-params",
                      help="Number of examples in the stream. T × N is capped at 5 million values.")
    alpha = st.select_slider("Promotion factor α", options=[1.5, 2.0, 3.0], value=2.0, key="alpha",
                             bind="query-params",
                             help="Weights are multiplied by α on a missed positive and divided by α on a false "
                                  "positive. The notes use α = 2 (β = 1); other values use the same proof "
                                  "with general constants.")
    if source != "Uploaded":
        seed = controls.seed_input()
        T_eff = int(min(T, streams.MAX_CELLS // N))
        if T_eff < T:
            st.caption(f"With N = {N:,} the stream is cut to {T_eff} rounds (T × N ≤ 5 million).")


@st.cache_data(max_entries=32, show_spinner=False)
def generate(T: int, N: int, k: int, seed: int):
    return streams.disjunction(T=T, N=N, k=k, seed=seed)


@st.cache_data(max_entries=32, show_spinner=False)
def run(X: np.ndarray, y: np.ndarray, alpha: float):
    return linear.winnow(X, y, alpha=alpha)


@st.cache_data(max_entries=8, show_spinner=False)
def disjunction_for(X: np.ndarray, y: np.ndarray):
    """Sorted attribute indices of a monotone disjunction that labels every row, or None if none does.

    Only attributes that are never 1 in a negative row can be in it; the largest such set labels the
    stream iff any disjunction does.  A greedy cover of the positive rows then gives a small one (the
    smallest is a set-cover problem): any consistent disjunction makes the theorem apply.
    """
    Xb = np.asarray(X, dtype=bool)
    pos = np.asarray(y) == 1
    allowed = np.flatnonzero(~Xb[~pos].any(axis=0))
    P = Xb[pos][:, allowed]
    if not P.any(axis=1).all():
        return None
    chosen, uncovered = [], np.ones(len(P), dtype=bool)
    while uncovered.any():
        j = int(P[uncovered].sum(axis=0).argmax())
        chosen.append(int(allowed[j]))
        uncovered &= ~P[:, j]
    return np.array(sorted(chosen), dtype=int)


@st.cache_data(max_entries=16, show_spinner=False)
def sweep(k: int, n_seeds: int, T: int = 400):
    """Mistakes of Winnow and of the Perceptron (with a bias feature) as N grows."""
    Ns = np.array([10, 30, 100, 300, 1000, 3000, 10000])
    W = np.zeros((n_seeds, len(Ns)))
    P = np.zeros((n_seeds, len(Ns)))
    for j, n in enumerate(Ns):
        for s_ in range(n_seeds):
            s = streams.disjunction(T=int(min(T, streams.MAX_CELLS // n)), N=int(n), k=min(k, int(n)), seed=s_)
            W[s_, j] = linear.winnow(s.X, s.y).n_mistakes
            Xb = np.column_stack([s.X, np.ones(s.T)])           # bias: y = 1 iff sum_rel x_i - 1/2 > 0
            P[s_, j] = linear.perceptron(Xb, 2.0 * s.y - 1.0).n_mistakes
    return Ns, W, P


try:
    if source == "Uploaded":
        if uploaded is None:
            st.info("Choose a CSV file in the sidebar (a template is there to download), "
                    "or switch the source to Generated.")
            st.stop()
        stream = uploaded
        N = stream.k
        relevant = disjunction_for(stream.X, stream.y)
        k = max(1, len(relevant)) if relevant is not None else None
    else:
        stream = generate(T_eff, int(N), int(k), int(seed))
        relevant = stream.info["relevant"]
    tr = run(stream.X, stream.y, float(alpha))
except StreamError as exc:
    controls.show_error(exc)
    st.stop()

theta = float(N)
applies = k is not None            # an uploaded stream may have no consistent disjunction
if not applies:
    bound, formula = None, None
elif alpha == 2.0:
    bound, formula = bounds.winnow(int(k), int(N)), "2 + 3k(log₂N + 1)"
else:
    bound, formula = bounds.winnow_general(int(k), int(N), float(alpha), theta), "Nα/((α−1)θ) + (α+1)k(log_α θ + 1)"

shown_preset = controls.matching_preset(PRESETS, PRESET_KEY)  # now the widgets exist
if presenter and shown_preset is not None:   # the sidebar (and its note) is hidden when presenting
    st.info(f"**{shown_preset.name}**: {shown_preset.note}", icon=":material/school:")

# ---- the run -------------------------------------------------------------------------------------
st.subheader("Watch the weights")
t = controls.round_player(tr.T, key="t", events=tr.mistakes, event_name="mistake")
e = tr.extras
MAX_COLOURED = 8
if source == "Uploaded":
    if relevant is None:
        who = ("No disjunction labels this stream: some positive row has none of the attributes that are "
               "never on in a negative row.")
        coloured = np.array([], dtype=int)
    else:
        coloured = relevant[:MAX_COLOURED]
        who = (f"A disjunction that labels every row (found greedily, k = {len(relevant)}): "
               + ", ".join(f"x{int(r) + 1}" for r in coloured) + (" …" if len(relevant) > len(coloured) else "")
               + ".")
else:
    coloured = relevant
    who = "Relevant attributes: " + ", ".join(f"x{int(r) + 1}" for r in relevant) + "."
st.markdown(f"After **{t}** of {tr.T} rounds: **{int(e['m_plus'][t])}** mistakes on positives "
            f"(promotions) and **{int(e['m_minus'][t])}** on negatives (demotions). " + who)
mist = np.flatnonzero(tr.mistakes)
K = int(tr.weight_index[t]) + 1
names = ({"relevant_name": "in the disjunction", "others_name": "other attributes"} if source == "Uploaded" else {})
controls.chart(figs.winnow_weights(tr.weight_table[:K], mist[: K - 1] + 1, t, coloured, theta=theta,
                                   current_round=t, presenter=presenter, **names),
               key="weights", filename="winnow_weights")
st.caption("Log scale; the dotted vertical line is the player's round. Coloured: the relevant attributes, "
           "which only ever go up (a negative example has none of them on, so they are never halved); grey: "
           "the spread of the others (max, median, min). A relevant weight is doubled only while the active "
           f"weights sum to at most θ = N = {N:,}, so it is promoted at most log₂N + 1 times."
           + (f" Only the first {MAX_COLOURED} attributes of the disjunction are coloured." if len(coloured) < (
               0 if relevant is None else len(relevant)) else ""))

st.subheader("Mistakes against the bound")
controls.chart(figs.mistakes_compare({"Winnow": np.cumsum(tr.mistakes)}, {formula: bound} if applies else {},
                                     title="Mistakes", current_round=t, presenter=presenter),
               key="mistakes", filename="winnow_mistakes")
if applies:
    st.caption(f"The staircase counts Winnow's mistakes after each round; the dashed line is the bound "
               f"{formula} = {bound:.4g} for k = {k}, N = {N:,}. The bound holds for any stream labelled by a "
               "k-literal disjunction, however long: once the staircase goes flat, Winnow has learnt the "
               "disjunction (or a rule that agrees with it on everything seen since).")
else:
    st.warning("**The theorem does not apply to this stream**: no OR of attributes gives every row its label, "
               "so Winnow's mistake bound says nothing and none is drawn. Winnow still runs, and may keep "
               "erring for ever.")
with st.container(key="controls"):   # hidden with its notes in presenter mode
    controls.download_run(tr, stream, bound=np.full(tr.T, bound) if applies else None, name="winnow_run",
                          key="download_winnow")
st.markdown("**The theorem, with this run's numbers**")
if not applies:
    st.markdown(f"This run: **m = {tr.n_mistakes}** mistakes in {tr.T} rounds; no bound (no consistent "
                "disjunction).")
elif alpha == 2.0:
    st.latex(r"m = m^+ + m^- < 2 + 3k(\log_2 N + 1) = 2 + 3\cdot %d\,(\log_2 %d + 1) = %.4g"
             % (k, N, bound))
else:
    st.latex(r"m < \frac{N\alpha}{(\alpha-1)\theta} + (\alpha+1)\,k\,(\log_\alpha\theta + 1) = %.4g"
             r"\quad(\alpha = %g,\ \theta = N = %d,\ k = %d)" % (bound, alpha, N, k))
if applies and alpha == 2.0:   # the proof's two steps, with this run's counts
    m_p, m_m = int(e["m_plus"][-1]), int(e["m_minus"][-1])
    st.latex(r"m^+ = %d \le k(\log_2 N + 1) = %.4g, \qquad m^- = %d < 2 + 2m^+ = %d"
             % (m_p, k * (np.log2(N) + 1), m_m, 2 + 2 * m_p))
if applies:
    st.markdown(f"This run: **m = {tr.n_mistakes}** mistakes ({int(e['m_plus'][-1])} promotions, "
                f"{int(e['m_minus'][-1])} demotions) in {tr.T} rounds, {bound - tr.n_mistakes:.4g} below the bound.")
st.caption("CMU 16-831 notes (seeds/001_c4932eda687fdb6a.txt, section 4.4), with θ = N and α = 2 (β = 1). "
           "Prediction is 1 when Σ w_i x_i > θ (strictly), as in the notes."
           + (" For an uploaded stream k is the size of the disjunction found; a smaller one would give a "
              "smaller bound." if source == "Uploaded" else ""))
controls.show_code(linear.Winnow, "Show the code: Winnow (reference class)")

# ---- the proof -------------------------------------------------------------------------------------
st.subheader("The proof: the potential Σ w")
pot_formula = ("N + N·m⁺ − N·m⁻/2" if alpha == 2.0 else "N + (α−1)θ·m⁺ − (1−1/α)θ·m⁻")
controls.chart(figs.winnow_potential(e["potential"], e["potential_upper"], pot_formula, current_round=t,
                                     presenter=presenter), key="potential", filename="winnow_potential")
st.caption("Φ = Σ w starts at N. A promotion adds the active weights, at most θ = N (else the "
           "prediction was 1); a demotion removes half the active weights, more than N/2. The dashed line adds N per "
           "promotion and removes N/2 per demotion, so Φ stays below it; and Φ > 0, so the demotions are fewer than "
           "2 + 2m⁺.")

# ---- Perceptron against Winnow as N grows -------------------------------------------------------------
st.subheader("Learning quickly when irrelevant attributes abound")
st.markdown("The same kind of stream for growing N: Winnow's mistakes grow like log N, the Perceptron's "
            "(with a constant bias attribute) like N. Each point averages several seeds; the band spans "
            "the smallest to the largest count.")
k_sweep = int(min(10, k if k is not None else 3))
if source == "Uploaded":
    st.caption(f"Generated streams with k = {k_sweep} relevant attributes (not your upload).")
n_seeds = st.slider("Seeds per N", 2, 8, 4, key="sweep_seeds", bind="query-params",
                    help="How many random streams (seeds 0, 1, ...) are run for each N, 400 rounds each "
                         "(fewer when N × rounds would exceed 5 million values).")
Ns, Wm, Pm = sweep(k_sweep, int(n_seeds))
kk = np.minimum(k_sweep, Ns)
sweep_bounds = {
    "2 + 3k(log₂N + 1) (Winnow)": 2 + 3 * kk * (np.log2(Ns) + 1),
    "(4k+1)(N+1) (Perceptron)": (4 * kk + 1) * (Ns + 1.0),
}
controls.chart(figs.sweep_mistakes(Ns, {"Winnow": Wm, "Perceptron": Pm}, sweep_bounds, presenter=presenter,
                                   y_max=4 * max(Pm.max(), sweep_bounds["2 + 3k(log₂N + 1) (Winnow)"].max())),
               key="sweep", filename="winnow_vs_perceptron_sweep")
st.caption("Log–log axes. The Perceptron's bound is Novikoff's with u = (2,…,2 on the relevant attributes, "
           "bias −1), which has y·u·x ≥ 1, so ‖u‖² = 4k + 1, and R² ≤ N + 1. Curves cannot exceed the number "
           "of rounds (400); the Perceptron's bound, linear in N, soon leaves the frame.")
controls.show_code(linear.Perceptron, "Show the code: Perceptron (reference class, the comparison above)")
