"""Placeholder until this page's issue lands."""

import streamlit as st

st.title("perceptron")
st.info("Coming soon: this page is being built.")
