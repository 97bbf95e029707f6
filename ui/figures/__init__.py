"""Figure builders: pure functions that return `go.Figure` (no Streamlit here).

style: every colour, scale, font and shared layout; grid: one annotated map with
overlays and click targets; mosaic: many small maps in one figure; routing: where one
dL/dy goes; matrix: the layer as its Jacobian; curves: line charts.
"""
