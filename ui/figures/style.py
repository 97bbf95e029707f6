"""The one visual config: every colour (light and dark), width, height, margin and font
size of the lab, as named slots (the layout built from them: layouts.py). Nothing else
under ui/ writes a colour or a pixel size (tests/test_figure_style.py scans for them);
`.streamlit/config.toml` keeps Streamlit's own theme colours.

Three scales that cannot be mistaken for one another, also under deuteranopia and
protanopia (tests/test_figure_style.py simulates both): input and output *values* in
greys, like ink on paper; *gradients* diverging purple (negative), white (0), orange
(positive), always centred on 0; *counts* in teal. Marks are black with a white edge,
so they stay visible on every cell colour, and sit in a cell's corner or on its
border, never on its number. How a number fits its cell: ui/figures/labels.py.
"""

from __future__ import annotations

# -- colours ---------------------------------------------------------------------------
VALUE_SCALE = [[0.0, "#ffffff"], [0.5, "#a1a1aa"], [1.0, "#3f3f46"]]
GRADIENT_SCALE = [
    [0.0, "#5e3c99"],
    [0.25, "#b2abd2"],
    [0.5, "#f7f7f7"],
    [0.75, "#fdb863"],
    [1.0, "#e66101"],
]
COUNT_SCALE = [[0.0, "#f0fdfa"], [1.0, "#2a9d8f"]]
# Class mode: the share of a room that picked each cell, 0 to 100 %, in blues (a scale of
# its own: not a value, a gradient nor a count).
SHARE_SCALE = [[0.0, "#eff6ff"], [1.0, "#2563eb"]]
SCALES = {
    "value": VALUE_SCALE,
    "gradient": GRADIENT_SCALE,
    "count": COUNT_SCALE,
    "share": SHARE_SCALE,
}

BACKGROUND = "#ffffff"  # a light figure's plot
PADDING_COLOUR = "#e4e4e7"
PADDING_TEXT = "#52525b"
BACKDROP_COLOUR = "#f4f4f5"  # the routing figure's input cells that receive nothing
OUTLINE_COLOUR = "#111111"  # the current window
MARK_COLOUR = "#111111"  # winners: a star in the cell's corner, or a frame (see marks)
MARK_EDGE = "#ffffff"
# An exercise's answer on x (ui/figures/answer_marks.py), each its own shape: a light
# core on a black edge, one of which stands out on every cell colour of either theme.
PICK_COLOUR = "#fde047"  # your pick: a yellow dot in the cell's top-left corner
RIGHT_COLOUR = "#86efac"  # after checking, a right pick: a tick there
EXTRA_COLOUR = "#fecaca"  # a pick that receives nothing: a cross there
MISSED_COLOUR = "#ffffff"  # a cell that receives gradient, not picked: a dashed frame
ANSWER_EDGE = "#000000"
# What captions call these marks: teaching/words.py (MARK_LEGEND, RIGHT_LEGEND...).
# Class mode's bar chart of the numbers a room typed: each answer a grey bar; once the
# answer is revealed, the right one green (and ticked in its label).
BAR_COLOUR = "#a1a1aa"
RIGHT_BAR_COLOUR = "#16a34a"
# A QR code: dark modules on white, whatever the page's theme (phones read it so).
QR_DARK = "#000000"
QR_LIGHT = "#ffffff"
ROUTE_COLOUR = "#c2410c"  # routes, and the current point of a curve
LINE_COLOUR = "#3f3f46"  # curves (loss, positions reached)
GRID_LINE = "#eeeeee"
TITLE_TEXT = "#27272a"

# Dark (look.styled): text and lines light on Streamlit's dark background; the cells
# keep their colours (every scale is light enough at 0 for its own numbers to read).
DARK_BACKGROUND = "#0e1117"  # Streamlit's dark background, near enough for contrast
TRANSPARENT = "rgba(0, 0, 0, 0)"  # a dark figure's backgrounds: the page's own shows
DARK_TEXT = "#e4e4e7"
DARK_LINES = {GRID_LINE: "#3f3f46", LINE_COLOUR: "#d4d4d8"}  # light line -> its dark twin

# -- fonts -----------------------------------------------------------------------------
FONT = dict(family="Inter, Arial, sans-serif", size=14, color=TITLE_TEXT)
CELL_FONT_PX = 13  # numbers in cells, when they fit at this size
MIN_CELL_FONT_PX = 12  # the floor: a number that does not fit is shrunk no further
LECTURE_CELL_FONT_PX = 18  # numbers on maps in lecture mode (also the floor there)
LECTURE_SCALE = LECTURE_CELL_FONT_PX / CELL_FONT_PX  # lecture figures: all this much bigger
TICK_FONT_PX = 12  # row and column numbers, axis ticks, a colour bar's numbers
TITLE_FONT_PX = 16
TITLE_CHAR_EM = 0.5  # a title's letters average 0.42-0.52 em (measured in Chromium)
TITLE_LINE_PX = 21  # each further line of a wrapped title
TITLE_TOP_PX = 8  # above a title's first line
TITLE_PAD_PX = 4
MAP_TITLE_PX = 13  # each small map's own title, above it in a mosaic

# -- columns a figure is laid out for (CSS px) -------------------------------------------
# Measured: the main column is 521 on a projector (1280x720 at 150 %), 564 at 1024x768
# and 358 on a phone (390x844), where st.columns stack; half a main column is 253 on a
# projector and 274 at 1024. The page's real width is not known on the server, so a
# figure is laid out for the narrowest place it sits in: every cell as tall as it is
# wide there, no empty band under it; wider screens keep spare room to its right.
PHONE_PX = 358  # the main column on a phone
PHONE_SCREEN_PX = 480  # widest screen taken for a phone held upright (a CSS media query)
MAIN_PX = PHONE_PX  # a figure as wide as the main column (routing, J, mosaics of numbers)
HALF_PX = 250  # a map in half the main column (projector: 253)
THREE_QUARTERS_PX = 390  # beside a quarter-wide column: 3/4 of a projector's 521
# A small map in a column of a third or a quarter (174 or 130 px on a projector): laid
# out wider than that, so that on a phone, where the columns stack, it is not tiny.
NARROW_PX = 200
# The maps an exercise is answered from (x, whose cells a student clicks, and dL/dy),
# side by side: laid out wider than HALF_PX for bigger cells and targets on a phone,
# where the columns stack, at the cost of some room below them on a projector.
ANSWER_MAP_PX = 300
PHONE_PAIR_MAP_PX = 170  # x and dL/dy side by side in a phone's column, a gap between
# In lecture mode an exercise's maps take 3/5 of a
# projector's main column (656 of 1120 px, measured at 1280x720), the question and the
# answer the rest: a batch's mosaics fit it.
LECTURE_MAPS_PX = 656
LECTURE_HALF_PX = 552  # half of it (st.columns(2), 1 rem apart): a Lesson step's maps
# x to click, alone in that column: wider than ANSWER_MAP_PX, so that a 7x7 grid's
# cells hold an answer's marks clear of their numbers, with the ledger still under it.
LECTURE_PICK_MAP_PX = 380
# Lecture mode's step-through (1280x720): the main column is 1120 px, holding x, dL/dx
# and the words side by side, 16 px apart (Streamlit's small gap). Each map is laid out
# for a third of it: its title on one line, its cells as small as 18-px numbers allow
# once 8 rows or more share the height.
LECTURE_MAIN_PX = 1120
LECTURE_STEP_MAP_PX = 400
COLUMN_GAP_PX = 16
LECTURE_WORDS_MIN_PX = 220  # the words' column, at the least (8x8 maps of 0.11: 235)
ROW_ROUNDING_PX = 2  # spared in a row of fixed widths: one pixel too wide wraps it
# Streamlit draws a Plotly chart at least this wide (measured: a 1x1 map given a 144-px
# box was drawn 150 px wide and cut by the box), so a box of a row is no narrower.
CHART_LEAST_PX = 150
# -- the Batch page in lecture mode (1280x720: a 1120-px main column) ---------------
LECTURE_THREE_QUARTERS_PX = 820  # 3/4 of a projector's 1120-px main column, less the gap
LECTURE_MOSAIC_PX = 720  # of the projector's 1120-px main column; the words take the rest
LECTURE_WORDS_PX = 380
IN_A_ROW_MAP_PX = 310  # each map's share of a row of numbered 6x6 maps (3 fit 1120 px)
ROUTING_MAP_PX = 340  # a 6x6 routing map with 18-px numbers, two of them and words
CORNER_PX = 150  # the example's image, colour only, under the player's buttons
KERNEL_MAP_PX = 300
REACH_CHART_PX = 460
LOSS_CHART_PX = 340
KERNELS_PX = 480  # two 3x3 kernels side by side with their 18-px numbers (460 at least)
WORDS_PX = 270  # the buttons, two to a row, and the losses' sentence
# Maps drawn as colour only have no numbers to fit: a projector's main column, which a
# phone only shrinks.
COLOUR_MAIN_PX = 520

# -- cells, margins, heights -----------------------------------------------------------
CELL_PX = 46  # the largest cell drawn while the numbers fit in it
MIN_CELL_PX = 6
MAP_MOST_PX = 560  # a map's cells together are no taller: it fits a screen
CELL_GAP_PX = 2  # between a map's cells
LABEL_SLACK_PX = 8  # room a number needs in its cell beyond its own width: 3 + 3 + the gap
SNUG_SLACK_PX = 3  # ... at the least, in a column too narrow for that: the gap and 1
THIN_GAP_PX = 1  # between the cells of dense figures: mosaics, J
MARGIN = dict(l=36, r=16, t=72, b=16)
ROUTING_MARGIN = dict(MARGIN, t=40)  # the title only: the grids' own labels sit inside
# The band over the routing grids holding their names ("dL/dy", "sent to x"): one line,
# whatever the cells' size (cells grown for lecture-size numbers once made it a cell and
# a half, and an 8x8 grid of 1/9 shares overhung the projector's screen).
ROUTING_HEADER_PX = 24
MOSAIC_MARGIN = dict(l=8, r=8, t=8, b=8)
MOSAIC_TITLE_MARGIN_PX = 44  # a mosaic's top margin when it has a title
MOSAIC_SPARE_PX = 8  # below a mosaic's last row, beyond its margin
TITLE_ROW_PX = 12  # a mosaic's title row this tall holds a 13-px title; smaller: on hover
COLOUR_BAR_PX = 70  # a mosaic's colour bar, its numbers and the margins
COLOUR_BAR_THICKNESS_PX = 12
COLOUR_BAR_MOST_PX = 320  # the colour bar's longest
JACOBIAN_CELL_PX = (10, 34)  # J's smallest and largest cell before its numbers need more
JACOBIAN_MARGIN = dict(l=64, r=16, t=120, b=16)  # room for J's x·,· and y·,· ticks
JACOBIAN_SPARE_PX = 14  # below J's last row
LINE_CHART_PX = 290  # a line chart's height (loss, positions reached)
LINE_CHART_MARGIN = dict(l=60, r=16, t=52, b=48)
MAX_CURVE_PX = 300  # Home's y = max(a, b)
MAX_CURVE_MARGIN = dict(l=54, r=16, t=48, b=44)

# -- lines and marks -------------------------------------------------------------------
OUTLINE_WIDTH_PX = 3  # the current window's outline
# A light halo this wide on each side of every dark line and frame: the dark core shows
# on light cells, the halo on dark cells and on a dark page, where the outline's outer
# half runs over the page between the cells.
HALO_PX = 1.5
# Across a number, the room a cell keeps for a window's outline: the line and its halo
# reach half their width inside each cell they frame, on both sides, and 1 px more. A
# snug cell (a grown map's, sizes.snug_cell) keeps it: at SNUG_SLACK_PX alone, the outline
# covered the edges of −1.25 on an 8x8 grid.
OUTLINE_ROOM_PX = OUTLINE_WIDTH_PX + 2 * HALO_PX + 1
# Room around a map's cells, inside its plot area, for the outer half of a line along
# its outer edges (a window's outline, a winner's frame): the plot area cuts what runs
# past it, and a frame on a dark edge cell would lose its dark edge.
EDGE_SPARE_PX = OUTLINE_WIDTH_PX / 2 + HALO_PX
FRAME_WIDTH_PX = 2  # a winner's frame's light core, on cells too small for a star
MARK_EDGE_PX = 1.2
STAR_PX = (7, 12)  # a winner's star, smallest and largest
STAR_SHARE = 0.26  # of its cell's width
MARK_INSET_PX = 4  # a click target this much inside its cell; a star's margin
CLICK_MIN_PX = 8  # the smallest click target
PICK_PX = (7, 12)  # your pick's dot, smallest and largest
PICK_SHARE = 0.26  # of its cell's width
PICK_EDGE_PX = 2
ANSWER_LINE_PX = 2  # the core of a tick, a cross or a missed cell's dashed frame
ANSWER_EDGE_PX = 1  # the black edge on each side of that core
ANSWER_INSET_PX = 1  # a tick or a cross this far inside its cell's corner, edge included
ANSWER_MARK_SHARE = 0.25  # a tick or a cross: this share of its cell, clear of its number
MISSED_DASH = "dash"  # Plotly's dash style for the missed cell's frame
ROUTE_WIDTH_PX = 2.5
ARROW_PX = 9  # a route's arrow head
ARROW_CLEAR_PX = 1  # between an arrow head's tip and the top of its cell's number
CURVE_WIDTH_PX = 2.5
MAX_CURVE_WIDTH_PX = 3
POINT_PX = 6  # the points of a line chart
NOW_PX = 13  # the point the chart is at now
# Home's curve: each label's lower corner sits just off a point of the line, on the side
# the line leaves empty (above the flat part; above and left of the rising one), so no
# font size makes the line run through it.
SLOPE_LABEL_SHIFT = {
    "flat": dict(xanchor="left", yanchor="bottom", yshift=NOW_PX // 2 + 4),  # over the dot
    "rising": dict(xanchor="right", yanchor="bottom", xshift=-6),
}

# -- class mode's projector (ui/figures/class_answers.py, ui/class_mode/lecturer) --------
# The room screen fits a 1280x720 projector in either mode (lecture mode or not, the
# menu open or not): a join panel (the code, the QR code, the link) beside the class's
# answers. The QR code is at least 300 px tall, for a phone at the back of a hall, each
# module a whole number of CSS px, and the link is one line at ROOM_LINK_PX.
ROOM_JOIN_PX = 340  # the join panel's column, at the least (wider for a long link)
QR_LEAST_PX = 300
QR_MODULE_BORDER = 4  # the quiet zone, in modules: the standard's (ISO/IEC 18004)
ROOM_CODE_LECTURE_PX = 64  # the join code, read from the back of the hall
ROOM_CODE_DESK_PX = 44
ROOM_LINK_PX = 20  # the join link: lecture mode's text size, whatever the mode
ROOM_LINK_SLACK_PX = 8  # room the link's one line keeps beyond its estimated width
ROOM_DESK_TOP_PX = 36  # above the room at a desk: the page's 2.2 rem (35.2) in whole px
# Above a joined student's page: the page title's own margin cleared Streamlit's header
# band (3.75 rem, the menu's button in it); the room's one line needs that room itself.
JOINED_TOP_PX = 56
# The share map: each cell's share in % at SHARE_FONT_PX (20.8 px in lecture mode) in a
# column ROOM_MAP_PX wide (alone, the words beside it) or ROOM_PAIR_MAP_PX (two votes
# side by side: 8 columns of "100" just fit), in CSS px as grid_figure's width_px; its
# cells no taller together than ROOM_MAP_MOST_PX before lecture mode's scale.
SHARE_FONT_PX = 15
SHARE_SLACK_PX = 4  # room a share needs in its cell beyond its own width
# Once revealed, a cell some of the class picked that gets no gradient: a dashed frame
# along its edges, a light core on a black line (answer_marks' ANSWER_LINE_PX and
# ANSWER_EDGE_PX), reaching WRONG_REACH_PX into the cell, inside SHARE_SLACK_PX / 2.
WRONG_COLOUR = EXTRA_COLOUR  # the Exercises' colour for a pick that gets nothing
WRONG_DASH = "dash"
WRONG_REACH_PX = ANSWER_EDGE_PX + ANSWER_LINE_PX / 2
ROOM_MAP_PX = 420
ROOM_PAIR_MAP_PX = 370
ROOM_MAP_MOST_PX = 260
ROOM_PAIR_MOST_PX = 210  # two votes side by side: less tall, for the shift's words
ROOM_MARGIN = dict(l=24, r=4, t=56, b=6)
BARS_HEIGHT_PX = 280  # the bar chart of typed numbers, before lecture mode's scale
BARS_MARGIN = dict(l=40, r=8, t=56, b=48)
BAR_TEXT_PX = 15  # the count over each bar

# -- page elements other than figures --------------------------------------------------
EDITOR_COLUMN_PX = 40  # room for "−1.5"; a 6x6 grid and its 3x3 dL/dy fit side by side at 1024
# The editors' row numbers (0 to 15, or "#1"): narrower than Streamlit's own 50 px, so that
# an 8 × 8 digit fits a 390-px phone and a 3 × 3 dL/dy its column at a projector's 150 %.
INDEX_COLUMN_PX = 32
WEIGHT_COLUMN_PX = 56  # five editable weights and their index fit a phone's 358-px column
SEED_INPUT_PX = 160  # the Exercises' set number, beside its buttons
CODE_HEIGHT_PX = 360  # a code snippet's box, which scrolls
# Lecture mode's page text (ui/shared/lecture.LECTURE_CSS): read from the back of a hall.
LECTURE_TEXT_PX = 20  # body text, questions, options, captions, buttons
LECTURE_TITLE_PX = 32  # the page title, smaller than Streamlit's: the room is for the idea
LECTURE_TOP_PX = 16  # above the title: a projector's 720 px are all needed
LECTURE_BOTTOM_PX = 16  # below the page in lecture mode (Streamlit leaves 160)


# -- Streamlit's own elements at AA contrast (WCAG 1.4.3) in either theme ------------------
# Streamlit writes a primary button's label white on the primary colour, and a slider's
# value and the open tab's label in the primary colour on the page. No colour has 4.5:1
# against both white and the dark page, so the dark theme's primary (.streamlit/
# config.toml, DARK_PRIMARY) is the darker orange white reads on, and those texts are
# written in the lighter orange (DARK_PRIMARY_TEXT) that reads on the dark page.
DARK_PRIMARY = "#c74b0f"  # white on it: 4.7:1
DARK_PRIMARY_TEXT = "#fb923c"  # on the dark page: 8:1
DARK_PAGE = "#171614"  # Streamlit's dark page, as Chromium draws it
# A code block's syntax colours: Streamlit's are the same in both themes (its keyword
# blue is 3.8:1 on the light code background, 4.1:1 on the dark one). Each of these has
# 4.5:1 or more on its theme's code background (CODE_BACKGROUNDS, as Chromium draws it),
# one a group of Streamlit's token classes (ui/shared/theme.css names the classes).
CODE_BACKGROUNDS = {"light": "#fcfcfb", "dark": "#22211e"}
SYNTAX_COLOURS = {
    "light": {
        "comment": "#57534e",
        "name": "#0369a1",
        "constant": "#15803d",
        "number": "#0f766e",
        "string": "#166534",
        "operator": "#9a3412",
        "url": "#6d28d9",
        "keyword": "#1d4ed8",
        "alarm": "#b91c1c",
    },
    "dark": {
        "comment": "#a8a29e",
        "name": "#7dd3fc",
        "constant": "#86efac",
        "number": "#5eead4",
        "string": "#4ade80",
        "operator": "#fdba74",
        "url": "#c4b5fd",
        "keyword": "#93c5fd",
        "alarm": "#fca5a5",
    },
}
