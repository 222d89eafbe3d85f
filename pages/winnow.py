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

N_OPTIONS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
with st.sidebar:
    st.subheader("Stream")
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
    seed = controls.seed_input()

T_eff = int(min(T, streams.MAX_CELLS // N))
if T_eff < T:
    st.sidebar.caption(f"With N = {N:,} the stream is cut to {T_eff} rounds (T × N ≤ 5 million).")


@st.cache_data(max_entries=32, show_spinner=False)
def run(T: int, N: int, k: int, alpha: float, seed: int):
    s = streams.disjunction(T=T, N=N, k=k, seed=seed)
    tr = linear.winnow(s.X, s.y, alpha=alpha)
    return tr, s.info["relevant"]


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
    tr, relevant = run(T_eff, int(N), int(k), float(alpha), int(seed))
except StreamError as exc:
    controls.show_error(exc)
    st.stop()

theta = float(N)
if alpha == 2.0:
    bound, formula = bounds.winnow(int(k), int(N)), "2 + 3k(log₂N + 1)"
else:
    bound, formula = bounds.winnow_general(int(k), int(N), float(alpha), theta), "Nα/((α−1)θ) + (α+1)k(log_α θ + 1)"

# ---- the run -------------------------------------------------------------------------------------
st.subheader("Watch the weights")
t = controls.round_player(tr.T, key="t", events=tr.mistakes, event_name="mistake")
e = tr.extras
st.markdown(f"After **{t}** of {tr.T} rounds: **{int(e['m_plus'][t])}** mistakes on positives "
            f"(promotions) and **{int(e['m_minus'][t])}** on negatives (demotions). Relevant attributes: "
            + ", ".join(f"x{int(r) + 1}" for r in relevant) + ".")
mist = np.flatnonzero(tr.mistakes)
K = int(tr.weight_index[t]) + 1
st.plotly_chart(figs.winnow_weights(tr.weight_table[:K], mist[: K - 1] + 1, t, relevant, theta=theta,
                                    current_round=t, presenter=presenter), key="weights")
st.caption("Log scale. Coloured: the k relevant attributes, which only ever go up; grey: the spread of the "
           "N − k irrelevant ones (max, median, min). A relevant weight is doubled only while it is at most "
           "θ = N, so it is promoted at most log₂N + 1 times.")

st.subheader("Mistakes against the bound")
st.plotly_chart(figs.mistakes_compare({"Winnow": np.cumsum(tr.mistakes)}, {formula: bound}, title="Mistakes",
                                      current_round=t, presenter=presenter), key="mistakes")
st.caption(f"The staircase counts Winnow's mistakes; the dashed line is the bound {formula} = {bound:.4g} "
           f"for k = {k}, N = {N:,}. The bound holds for any stream labelled by a k-literal disjunction, "
           "however long.")
st.markdown("**The theorem, with this run's numbers**")
if alpha == 2.0:
    st.latex(r"m = m^+ + m^- < 2 + 3k(\log_2 N + 1) = 2 + 3\cdot %d\,(\log_2 %d + 1) = %.4g"
             % (k, N, bound))
else:
    st.latex(r"m < \frac{N\alpha}{(\alpha-1)\theta} + (\alpha+1)\,k\,(\log_\alpha\theta + 1) = %.4g"
             r"\quad(\alpha = %g,\ \theta = N = %d)" % (bound, alpha, N))
st.markdown(f"This run: **m = {tr.n_mistakes}** mistakes in {tr.T} rounds.")
st.caption("CMU 16-831 notes (seeds/001_c4932eda687fdb6a.txt, section 4.4), with θ = N and α = 2 (β = 1). "
           "Prediction is 1 when Σ w_i x_i > θ (strictly), as in the notes.")

# ---- the proof -------------------------------------------------------------------------------------
st.subheader("The proof: the potential Σ w")
pot_formula = ("N + N·m⁺ − N·m⁻/2" if alpha == 2.0 else "N + (α−1)θ·m⁺ − (1−1/α)θ·m⁻")
st.plotly_chart(figs.winnow_potential(e["potential"], e["potential_upper"], pot_formula, current_round=t,
                                      presenter=presenter), key="potential")
st.caption("Φ = Σ w starts at N. A promotion adds the active weights, at most θ = N (else the "
           "prediction was 1); a demotion removes half the active weights, more than N/2. The dashed line adds N per "
           "promotion and removes N/2 per demotion, so Φ stays below it; and Φ > 0, so the demotions are fewer than "
           "2 + 2m⁺.")

# ---- Perceptron against Winnow as N grows -------------------------------------------------------------
st.subheader("Learning quickly when irrelevant attributes abound")
st.markdown("The same kind of stream for growing N: Winnow's mistakes grow like log N, the Perceptron's "
            "(with a constant bias attribute) like N. Each point averages several seeds; the band spans "
            "the smallest to the largest count.")
n_seeds = st.slider("Seeds per N", 2, 8, 4, key="sweep_seeds", bind="query-params",
                    help="How many random streams (seeds 0, 1, ...) are run for each N, 400 rounds each "
                         "(fewer when N × rounds would exceed 5 million values).")
Ns, Wm, Pm = sweep(int(k), int(n_seeds))
kk = np.minimum(int(k), Ns)
sweep_bounds = {
    "2 + 3k(log₂N + 1) (Winnow)": 2 + 3 * kk * (np.log2(Ns) + 1),
    "(4k+1)(N+1) (Perceptron)": (4 * kk + 1) * (Ns + 1.0),
}
st.plotly_chart(figs.sweep_mistakes(Ns, {"Winnow": Wm, "Perceptron": Pm}, sweep_bounds, presenter=presenter,
                                    y_max=4 * max(Pm.max(), sweep_bounds["2 + 3k(log₂N + 1) (Winnow)"].max())),
                key="sweep")
st.caption("Log–log axes. The Perceptron's bound is Novikoff's with u = (2,…,2 on the relevant attributes, "
           "bias −1), which has y·u·x ≥ 1, so ‖u‖² = 4k + 1, and R² ≤ N + 1. Curves cannot exceed the number "
           "of rounds (400); the Perceptron's bound, linear in N, soon leaves the frame.")
