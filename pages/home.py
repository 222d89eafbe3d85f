"""Home: what online learning is, what each page shows, where the material comes from."""

import streamlit as st

from olapp import registry  # (importing olapp sends the first request after a restart through app.py)

st.title("Online Learning Lab")
st.markdown(
    "Pick a data stream and a learning rate, then watch an online learner's weights, "
    "hyperplane and regret move **round by round**, against the bound its theorem proves, "
    "and watch the proof's potential function do exactly what the proof says."
)

left, right = st.columns(2, gap="large")
with left:
    st.subheader("Batch versus online")
    st.markdown(
        "- **Batch learning** trains once on an i.i.d. sample and is judged by its "
        "*generalisation error* on new data from the same distribution.\n"
        "- **Online learning** predicts on a sequence, one example at a time, and updates "
        "after each. There is no training/test split and usually *no statistical "
        "assumption*: the sequence may even be chosen by an adversary. It is judged by its "
        "**cumulative loss** over the sequence."
    )
with right:
    st.subheader("The protocol")
    st.markdown(
        "For rounds $t = 1, 2, \\dots, T$:\n"
        "1. receive an input $x_t$ (expert advice, a feature vector);\n"
        "2. predict $\\hat y_t$;\n"
        "3. receive the true outcome $y_t$;\n"
        "4. incur the loss $\\ell(\\hat y_t, y_t)$;\n"
        "5. update the hypothesis."
    )

st.subheader("Cumulative loss and regret")
st.markdown(
    "The learner's **cumulative loss** is $L_A(S) = \\sum_{t=1}^{T} \\ell(\\hat y_t, y_t)$, "
    "its number of **mistakes** $M$ when the loss is 0/1. Without assumptions on the data, no "
    "learner can promise a small loss outright, so the theorems compare it with the best "
    "comparator in hindsight (the best expert $i$, the best linear separator $u$): the "
    "**regret** $L_A(S) - \\min_i L_i(S)$. Each page draws the learner's curve next to the "
    "bound its theorem proves, with the run's own numbers substituted."
)

st.subheader("The pages")
cols = st.columns(3, gap="medium")
for i, entry in enumerate(registry.lessons()):
    with cols[i % len(cols)].container(border=True):
        st.page_link(entry.path, label=f"**{entry.title}**", icon=entry.icon)
        st.caption(entry.blurb)

st.subheader("Where the material comes from")
st.markdown(
    "Every algorithm, update rule, bound and worked example follows these lecture notes:\n"
    "- UCL COMP0078 *Supervised Learning*, \"Online learning\" (C. Ciliberto, slides by "
    "M. Herbster): experts, Halving, Weighted Majority, Weighted Average, Hedge, Perceptron, "
    "online gradient descent.\n"
    "- CMU 16-831 *Statistical Techniques in Robotics*, \"Online linear classification\": "
    "randomized Weighted Majority, the Perceptron's potential proof, Winnow.\n"
    "- \"Online gradient descent\" lecture notes (OLA, M. Castiglioni): online convex optimisation, "
    "projections, projected OGD and its D G √T regret, OGD for the expert problem (the Online "
    "gradient descent lesson; the Perceptron lesson also shows OGD on the hinge loss).\n"
    "- N. Cesa-Bianchi, \"On-line learning\": non-separable Perceptron bounds, "
    "Passive-Aggressive, and more.\n"
    "- Princeton COS 511 *Theoretical Machine Learning*, \"Online linear regression\": "
    "Widrow-Hoff and online-to-batch conversion.\n\n"
    "Where the notes leave a choice open, the lesson says which form it follows and why: for example "
    "PA-II's step ℓ/(‖x‖² + 1/C) on the slide solves the slide's own objective; the app uses the "
    "original paper's ℓ/(‖x‖² + 1/(2C)), whose C is the slide's C/2."
)
