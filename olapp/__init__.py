"""olapp: the Streamlit/plotly side of Online Learning Lab.

``theme`` (palette and plotly template), ``figures`` (plain functions from arrays to
``go.Figure``), ``controls`` (shared widgets), ``state`` (settings bound to the URL).
"""
