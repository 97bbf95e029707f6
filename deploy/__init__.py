"""Serving the lab: a local Streamlit process for tests and benchmarks, a class behind a proxy."""
