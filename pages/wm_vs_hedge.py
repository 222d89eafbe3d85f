"""Placeholder until this page's issue lands."""

import streamlit as st

st.title("wm_vs_hedge")
st.info("Coming soon: this page is being built.")
