"""Figures, built without Streamlit: the builders (grid, mosaic, routing, matrix,
curves, class_answers, answer_marks) return `go.Figure` (grid and mosaic take their
options as one frozen dataclass, GridOptions and MosaicOptions); frame_data returns
what a map changes from frame to frame (plain dicts, for the frame player); the other
modules hold what the builders share.

style: the one visual config (every colour, light and dark, every size, margin and
font); layouts: the title, margins and matrix axes every figure starts from; labels:
how numbers fit their cells; look: a figure drawn dark or at lecture size; sizes: how
big a map is drawn; marks: outlines and winners' marks; grid: one annotated map with
overlays and click targets, and the gradient colour range, decided from the maps
drawn together; mosaic: many small maps in one figure; routing: where one dL/dy goes;
matrix: the layer as its Jacobian; curves: line charts; class_answers: the class's
share map and bars; answer_marks: an exercise's picks and checked cells.
"""
