"""Figure builders: pure functions that return `go.Figure` (no Streamlit here).

style: the one visual config (every colour, light and dark, every size, margin and
font) and the layout figures share; labels: how numbers fit their cells; look: a
figure drawn dark or at lecture size; grid: one annotated map with overlays and click
targets, and the gradient colour range, decided from the maps drawn together; mosaic:
many small maps in one figure; routing: where one dL/dy goes; matrix: the layer as its
Jacobian; curves: line charts; frame_data: what a map changes from frame to frame, for
the frame player; class_answers: the class's share map and bars; answer_marks: an exercise's
picks and checked cells.
"""
