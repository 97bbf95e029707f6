"""A map's text twin on the page (teaching/map_twin.py says what it holds): a figure
named by its map's title, the summary sentence first, then the cells as a table with
row and column headers and the marks in words. Out of sight but in the accessibility
tree, where a screen reader finds it instead of the chart's run of digits; the chart
wrapper (chart.py) puts it just before its chart. Every text is escaped: a title or a
cell never becomes markup."""

from __future__ import annotations

from html import escape

import streamlit as st

from teaching.map_twin import MapTwin, twins_in_meta

CLASS = "lab-twin"  # chrome.PAGE_CSS keeps it out of sight and out of the layout
_OPEN = f'<figure class="{CLASS}"'  # how every twin's HTML begins


def figure_twins(figure) -> list[MapTwin]:
    """The twins a figure's builder left in its layout.meta (none for a figure without)."""
    return twins_in_meta(figure.layout.meta)


def twin_html(twin: MapTwin) -> str:
    """One map as HTML: <figure aria-label=name> with the summary and the table."""
    rows, cols = twin.shape
    texts = twin.cell_texts()
    head = "".join(f'<th scope="col">{escape(twin.column_header(col))}</th>' for col in range(cols))
    body = "".join(
        f'<tr><th scope="row">{escape(twin.row_header(row))}</th>'
        + "".join(f"<td>{escape(text)}</td>" for text in texts[row * cols : (row + 1) * cols])
        + "</tr>"
        for row in range(rows)
    )
    return (
        f'{_OPEN} aria-label="{escape(twin.name)}">'
        f"<p>{escape(twin.summary())}</p>"
        f"<table><caption>{escape(twin.name)}</caption>"
        f"<thead><tr><td></td>{head}</tr></thead><tbody>{body}</tbody></table></figure>"
    )


def figure_html(figure) -> str:
    """The HTML of `figure`'s twins ("" for none), made once per figure: a cached
    figure (chart.cached) is shared and never changed, and a Batch mosaic's 32 tables
    took about 9 ms to write, on every run."""
    made = getattr(figure, "_lab_twin_html", None)
    if made is None:
        made = "".join(twin_html(twin) for twin in figure_twins(figure))
        figure._lab_twin_html = made
    return made


def picked_attribute(picked) -> str:
    """A pick grid's cells picked as its twin carries them: ' data-picked="r,c;r,c"'
    ("" for a chart that takes no picks: None)."""
    if picked is None:
        return ""
    cells = ";".join(f"{int(row)},{int(col)}" for row, col in sorted(picked))
    return f' data-picked="{cells}"'


def show_twins(figure, *, key: str, picked=None) -> None:
    """The text twins of `figure`'s maps, placed where the next element goes, each
    naming the chart keyed `key` it stands for (data-chart: a frame the browser draws
    on that chart writes its twins too, ui/shared/frames.js). picked: the cells
    (row, col) a pick grid holds picked now (browser.js marks them selected and says
    whether a pick from the keyboard took), or None for a chart that takes no picks."""
    html = figure_html(figure)
    if html:
        named = f'{_OPEN} data-chart="{escape(key)}"{picked_attribute(picked)}'
        st.html(html.replace(_OPEN, named))
