"""Home page of the Pooling Backprop Lab."""

import streamlit as st

st.set_page_config(page_title="Pooling Backprop Lab", layout="wide")
st.title("Pooling Backprop Lab")
st.write("Where does the gradient go when it passes back through a pooling layer?")
