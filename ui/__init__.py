"""The pages in Streamlit and Plotly: per page its state, inputs and views (playground,
batch, lesson, exercises, class_mode, home), the figures (`ui.figures`: go.Figure
builders, no Streamlit) and the glue every page shares (`ui.shared`). What a page
computes or says is in teaching/; the rooms store is rooms/."""
