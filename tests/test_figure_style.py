"""The colour scales cannot be mistaken for one another, also with colour-blind eyes,
and every mark stays visible on every cell colour."""

import ast
import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from _plotly_utils.basevalidators import ColorValidator
from apptest import figure_titled, figures, heatmap_values, open_app
from source_tree import parsed

from ui.figures import grid as grids
from ui.figures import style
from ui.figures.look import Look, styled
from ui.figures.routing import routing_figure
from ui.shared.chrome import theme_css

# Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
}
DISTINCT = 20.0  # CIELAB ΔE: clearly different colours


def linear_rgb(hex_colour: str) -> np.ndarray:
    srgb = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def lab(linear: np.ndarray) -> np.ndarray:
    xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    ) @ np.clip(linear, 0, 1)
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(hex_colour: str, eyes: str) -> np.ndarray:
    return lab(SIMULATIONS[eyes] @ linear_rgb(hex_colour))


STRONG_ENDS = {
    "large value": style.VALUE_SCALE[-1][1],
    "negative gradient": style.GRADIENT_SCALE[0][1],
    "positive gradient": style.GRADIENT_SCALE[-1][1],
    "large count": style.COUNT_SCALE[-1][1],
}


@pytest.mark.parametrize("eyes", SIMULATIONS)
def test_the_scales_strong_ends_stay_apart(eyes):
    for (name_a, a), (name_b, b) in itertools.combinations(STRONG_ENDS.items(), 2):
        distance = np.linalg.norm(seen(a, eyes) - seen(b, eyes))
        assert distance > DISTINCT, f"{name_a} and {name_b} look alike to {eyes}: ΔE {distance:.1f}"


def test_gradient_zero_is_white_and_the_scale_is_symmetric():
    assert style.GRADIENT_SCALE[2] == [0.5, "#f7f7f7"]
    lightness = [seen(colour, "normal")[0] for _, colour in style.GRADIENT_SCALE]
    assert lightness[0] < lightness[1] < lightness[2] and lightness[4] < lightness[3] < lightness[2]


@pytest.mark.parametrize("eyes", SIMULATIONS)
def test_marks_stand_out_on_every_cell_colour(eyes):
    """A mark is black with a white edge: one of the two contrasts with any cell."""
    cells = [colour for scale in style.SCALES.values() for _, colour in scale]
    for cell in cells:
        cell_l = seen(cell, eyes)[0]
        core = abs(cell_l - seen(style.MARK_COLOUR, eyes)[0])
        edge = abs(cell_l - seen(style.MARK_EDGE, eyes)[0])
        assert max(core, edge) > 45, cell


def outlined_figures(dark: bool):
    """A map with the current window's outline and winners framed (cells too small for
    a star), and a routing figure, drawn for the light or the dark theme."""
    values = np.arange(144.0).reshape(12, 12)
    overlay = grids.Overlay(window=((0, 0), (0, 1), (1, 0), (1, 1)), marks=((0, 1), (5, 5)))
    grid = grids.grid_figure(
        values, title="x", options=grids.GridOptions(overlay=overlay, width_px=style.NARROW_PX)
    )
    routes = routing_figure(
        np.ones((2, 2)), np.ones((3, 3)), out_cell=(0, 0), window=((0, 0), (0, 1)), title="r"
    )
    return [styled(figure, Look(dark=dark)) for figure in (grid, routes)]


def line_colour(trace) -> tuple[str, float]:
    """A line's or an open frame's colour and width."""
    if trace.mode == "lines":
        return trace.line.color, trace.line.width
    return trace.marker.color, trace.marker.line.width


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("eyes", SIMULATIONS)
def test_outlines_and_frames_stand_out_on_every_cell_colour_and_either_page(dark, eyes):
    """Each outline and frame is a dark core drawn over a wider light halo: one of the
    two contrasts with every cell colour and with the page around the cells."""
    backgrounds = [colour for scale in style.SCALES.values() for _, colour in scale]
    backgrounds += [style.DARK_BACKGROUND if dark else style.BACKGROUND, style.PADDING_COLOUR]
    checked = 0
    for figure in outlined_figures(dark):
        names = [trace.name for trace in figure.data]
        for index, trace in enumerate(figure.data):
            if f"{trace.name} halo" not in names:
                continue
            halo = figure.data[names.index(f"{trace.name} halo")]
            assert names.index(f"{trace.name} halo") < index, "the halo is drawn first"
            (core, core_px), (light, halo_px) = line_colour(trace), line_colour(halo)
            assert halo_px > core_px
            for background in backgrounds:
                lightness = seen(background, eyes)[0]
                contrast = max(
                    abs(lightness - seen(core, eyes)[0]), abs(lightness - seen(light, eyes)[0])
                )
                assert contrast > 45, (trace.name, background)
            checked += 1
    assert checked >= 4  # the window, the framed winners, the routing's two outlines


# -- the one visual config: no colour or pixel size written anywhere else in ui/ ----------

UI = Path(__file__).resolve().parents[1] / "ui"
STYLE = UI / "figures" / "style.py"
HEX = re.compile(r"(?<![\w&])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})\b")
FUNCTION_COLOUR = re.compile(r"\b(?:rgba?|hsla?)\s*\(", re.IGNORECASE)
CSS_COLOUR = re.compile(r"\b(?:background-)?colou?r\s*:\s*([a-z]+)", re.IGNORECASE)
CSS_PX = re.compile(r"\b\d+(?:\.\d+)?px\b")
NAMED = set(ColorValidator.named_colors)
# Keywords that take pixels in Plotly and Streamlit calls (sizes, gaps, shifts); and in
# the dict(...) a Plotly font, marker or margin is given (elsewhere `size` is a batch's).
PIXEL_KEYWORDS = {"width", "height", "thickness", "xgap", "ygap", "xshift", "yshift"}
PLOTLY_DICT_KEYWORDS = {"size", "l", "r", "t", "b"}


def is_number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(is_number(item) for item in node.elts)
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def named_colours(node: ast.AST) -> list[str]:
    """Named colours ("white", "red") written as string constants under `node`."""
    return [
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.lower() in NAMED
    ]


def style_literals(source: str) -> list[str]:
    """Every colour literal and pixel-size literal in Python `source`: hex, rgb(),
    rgba(), hsl() or CSS `color:` in any string; a named colour given to a colour
    keyword, key or constant; a number given to a pixel keyword (width=, size=, margin
    sides, gaps...) or to a keyword or a constant named *_px; a CSS size in px."""
    found = []
    tree = parsed(source)
    in_dict = {
        id(keyword)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "dict"
        for keyword in call.keywords
    }
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            for pattern in (HEX, FUNCTION_COLOUR, CSS_PX):
                found += [f"{where}: {m.group(0)!r}" for m in pattern.finditer(text)]
            found += [f"{where}: CSS {m.group(0)!r}" for m in CSS_COLOUR.finditer(text)]
        elif isinstance(node, ast.keyword) and node.arg:
            name = node.arg.lower()
            if "colo" in name:
                found += [f"{where}: {name}={c!r}" for c in named_colours(node.value)]
            pixels = name in PIXEL_KEYWORDS or name.endswith("_px")
            pixels |= name in PLOTLY_DICT_KEYWORDS and id(node) in in_dict
            if pixels and is_number(node.value):
                found.append(f"{where}: {name}={ast.unparse(node.value)}")
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and "colo" in str(key.value).lower():
                    found += [f"{where}: {key.value}: {c!r}" for c in named_colours(value)]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for name in (t.id for t in targets if isinstance(t, ast.Name)):
                if name.lower().endswith("_px") and node.value and is_number(node.value):
                    found.append(f"{where}: {name} = {ast.unparse(node.value)}")
                if "colo" in name.lower() and node.value:
                    found += [f"{where}: {name} = {c!r}" for c in named_colours(node.value)]
    return found


@pytest.mark.parametrize(
    "source",
    [
        'backdrop = dict(colorscale=[[0, "#f4f4f5"], [1, "#f4f4f5"]])',
        'layout = dict(paper_bgcolor="rgba(0, 0, 0, 0)")',
        'line = dict(color="white", width=2.5)',
        "HALF_PX = 250",
        "figure = grid_figure(x, width_px=390)",
        "margin = dict(l=60, r=16, t=52, b=48)",
        'st.number_input("Set", width=160)',
        'st.html("<style>.box { min-width: 200px; color: red }</style>")',
        'ROUTE_COLOUR = "orange"',
        'marker = {"color": "black"}',
        "textfont = dict(size=12)",
    ],
)
def test_the_scan_finds_colour_and_pixel_literals(source):
    assert style_literals(source), source


def test_the_scan_lets_named_slots_and_words_through():
    source = (
        'caption = "Pixels from 0 (white) to 1 (ink); a 12-px floor, example #12."\n'
        "figure = grid_figure(x, width_px=style.HALF_PX, decimals=2)\n"
        'Field(REDUCTION, "red", "mean")\n'
        "settings = BatchSettings(size=2, seed=0)\n"
        "preset = dict(mode='max', kh=2, pad=0)\n"
        'st.dataframe(frame, width="content")\n'
    )
    assert style_literals(source) == []


def test_no_colour_or_pixel_size_is_written_outside_the_style_module():
    found = {
        str(path.relative_to(UI.parent)): literals
        for path in sorted(UI.rglob("*.py"))
        if path != STYLE and (literals := style_literals(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"take these from ui/figures/style.py: {found}"


# -- colour-scale limits are decided by the figures ---------------------------------------


def test_a_gradient_map_spans_its_group_and_maps_of_one_group_read_alike():
    upstream, grad_x = np.array([[2.0, -1.0]]), np.array([[0.5, -3.0, 1.0]])
    group = (grad_x, upstream)
    alone = grids.grid_figure(upstream, title="dL/dy", options=grids.GridOptions(kind="gradient"))
    assert (alone.data[0].zmin, alone.data[0].zmax) == (-2.0, 2.0)  # its own values
    for values in group:
        cells = grids.grid_figure(
            values, title="g", options=grids.GridOptions(kind="gradient", shared_range=group)
        ).data[0]
        assert (cells.zmin, cells.zmax) == (-3.0, 3.0)
    zeros = grids.grid_figure(
        np.zeros((2, 2)), title="0", options=grids.GridOptions(kind="gradient")
    ).data[0]
    assert (zeros.zmin, zeros.zmax) == (-1.0, 1.0)  # all zeros: still a usable range
    routing = routing_figure(
        upstream, np.array([[0.0, -1.0]]), out_cell=(0, 1), window=((0, 1),), title="r"
    )
    spans = {(t.zmin, t.zmax) for t in routing.data if t.name in ("dL/dy", "sent")}
    assert spans == {(-2.0, 2.0)}  # both of its grids on one scale, from their values


def test_the_playground_s_gradient_maps_share_the_scale_of_dl_dx_and_dl_dy():
    grid = "1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8"
    query = {"tab": "forward", "x": grid, "kh": "3", "kw": "3", "sh": "1", "sw": "1"}
    app = open_app("screens/playground.py", query)
    spans = {
        (trace["zmin"], trace["zmax"])
        for figure in figures(app)
        for trace in figure["data"]
        if trace.get("type") == "heatmap" and trace.get("name") in ("gradient", "dL/dy", "sent")
    }
    both = [heatmap_values(figure_titled(app, t), "gradient") for t in ("Upstream dL/dy", "dL/dx")]
    largest = max(float(np.abs(values).max()) for values in both)
    assert largest > 1 and spans == {(-largest, largest)}  # dL/dx outgrows dL/dy here


# -- Streamlit's own texts at WCAG AA (1.4.3: 4.5:1) -------------------------------------


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of "#rrggbb"."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def theme_primaries() -> dict[str, str]:
    import tomllib

    config = tomllib.loads((Path(__file__).parents[1] / ".streamlit/config.toml").read_text())
    return {theme: config["theme"][theme]["primaryColor"] for theme in ("light", "dark")}


def test_a_primary_buttons_white_label_reads_in_either_theme():
    primaries = theme_primaries()
    assert primaries["dark"] == style.DARK_PRIMARY
    for theme, primary in primaries.items():
        assert contrast(primary, "#ffffff") >= 4.5, theme
    # The light theme writes its primary on white too (a slider's value, the open tab).
    assert contrast(primaries["light"], style.BACKGROUND) >= 4.5


def test_the_dark_themes_primary_texts_are_lightened_to_read_on_its_page():
    # The dark primary itself would not read there: that is why they are lightened.
    assert contrast(style.DARK_PRIMARY, style.DARK_PAGE) < 4.5
    assert contrast(style.DARK_PRIMARY_TEXT, style.DARK_PAGE) >= 4.5
    css = theme_css(dark=True)
    for selector in PRIMARY_TEXT_SELECTORS:
        assert selector in css
    assert f"{{ color: {style.DARK_PRIMARY_TEXT}; }}" in css
    assert style.DARK_PRIMARY_TEXT not in theme_css(dark=False)


# Streamlit's primary-coloured texts on the page (a slider's value, the open tab).
PRIMARY_TEXT_SELECTORS = (
    '[data-testid="stSliderThumbValue"],',
    '[data-testid="stSliderThumbValue"] p,',
    '[data-testid="stTab"][aria-selected="true"] p',
)
# The token classes of Streamlit's code blocks, by the colour group that paints them.
SYNTAX_TOKENS = {
    "comment": ("comment", "prolog", "doctype", "cdata", "punctuation", "unchanged"),
    "name": ("attr-name", "property", "variable"),
    "constant": ("boolean", "constant", "symbol", "inserted"),
    "number": ("number", "regex"),
    "string": ("string", "char", "attr-value"),
    "operator": ("operator", "entity", "decorator", "atrule"),
    "url": ("url",),
    "keyword": ("keyword", "tag", "function", "class-name", "selector"),
    "alarm": ("important", "deleted"),
}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_syntax_colour_reads_on_its_themes_code_background(theme):
    background = style.CODE_BACKGROUNDS[theme]
    css = theme_css(dark=theme == "dark")
    for group, colour in style.SYNTAX_COLOURS[theme].items():
        assert contrast(colour, background) >= 4.5, (group, colour)
        for token in SYNTAX_TOKENS[group]:
            assert token_colours(css)[token] == colour, (group, token)


def token_colours(css: str) -> dict[str, str]:
    """{token class: the colour the last rule naming it gives} in a theme's CSS."""
    colours = {}
    for selectors, colour in re.findall(r"([^{}]+)\{ color: (#[0-9a-f]{6}); \}", css):
        for token in re.findall(r"\.token\.([\w-]+)", selectors):
            colours[token] = colour
    return colours
