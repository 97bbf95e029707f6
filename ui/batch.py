"""The Batch page: a tiny CNN on a mini-batch, routed example by example, averaged
where the parameters are shared. Each function draws one part of the screen."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from pooling.batch import REDUCTIONS, reduce_batch
from pooling.network import NetConfig

from . import figures
from .batch_lesson import SEED_GRADIENTS, SOURCE_LABELS, SOURCES, BatchLesson, build_batch_lesson
from .controls import config_from_state, pool_controls, pool_fields
from .frame import chart, show_notices, start_page_state
from .grid_editor import grid_editor, parse_edited, set_grid
from .numbers import fmt
from .player import player
from .urlstate import Field, flag, int_in, one_of, snapshot, write_flag

P = "bt"
BATCH_MAX, STEPS_MAX = 64, 200
ANNOTATE_UP_TO = 8  # examples; beyond this the small maps are colour only
DECIMALS = 2  # small maps have room for two decimals
PLAY_SECONDS = 0.8
LEARNING_RATES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)


def parse_rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("is not a number") from None
    if value not in LEARNING_RATES:
        raise ValueError(f"must be one of {', '.join(map(str, LEARNING_RATES))}")
    return value


FIELDS = pool_fields(P) + [
    Field(f"{P}_source", "data", "digits", one_of(SOURCES)),
    Field(f"{P}_size", "n", 8, int_in(1, BATCH_MAX)),
    Field(f"{P}_seed", "seed", 0, int_in(0, 10**6)),
    Field(f"{P}_kernels", "f", 2, int_in(1, 4)),
    Field(f"{P}_ksize", "k", 3, int_in(1, 5)),
    Field(f"{P}_relu", "relu", True, flag, write_flag),
    Field(f"{P}_reduction", "red", "mean", one_of(REDUCTIONS)),
    Field(f"{P}_lr", "lr", 0.1, parse_rate),
    Field(f"{P}_steps", "steps", 0, int_in(0, STEPS_MAX)),
    Field(f"{P}_example", "ex", 0, int_in(0, BATCH_MAX - 1)),
    Field(f"{P}_feature", "map", 0, int_in(0, 3)),
]


def init_state() -> None:
    start_page_state(P, FIELDS, {f"{P}_playing": False, f"{P}_edits": {}})


def sidebar_controls() -> None:
    with st.sidebar:
        st.subheader("Batch")
        st.selectbox(
            "Data",
            SOURCES,
            key=f"{P}_source",
            format_func=SOURCE_LABELS.get,
            help="scikit-learn's bundled 8×8 handwritten digits, random noise, "
            "or digits whose pixels you edit.",
        )
        left, right = st.columns(2)
        left.number_input("Batch size", 1, BATCH_MAX, key=f"{P}_size", help=f"1 to {BATCH_MAX}.")
        right.number_input(
            "Seed", 0, 10**6, key=f"{P}_seed", help="Picks the examples and the starting weights."
        )
        st.subheader("Network")
        left, right = st.columns(2)
        left.number_input(
            "Kernels",
            1,
            4,
            key=f"{P}_kernels",
            help="Learnable k×k convolution kernels, each with a bias.",
        )
        right.number_input("Kernel size", 1, 5, key=f"{P}_ksize")
        st.toggle("ReLU after the convolution", key=f"{P}_relu")
        st.radio(
            "Loss over the batch",
            REDUCTIONS,
            key=f"{P}_reduction",
            horizontal=True,
            format_func={"mean": "mean (1/N Σ)", "sum": "sum (Σ)"}.get,
            help="Mean divides by N; summing and multiplying by 1/N later is the same.",
        )
        st.subheader("Pooling layer")
        pool_controls(P)


def reset_training() -> None:
    st.session_state[f"{P}_steps"] = 0


@st.cache_data(max_entries=16, show_spinner=False)
def cached_lesson(*settings) -> BatchLesson:
    """build_batch_lesson, kept across reruns: picking a map or an example must not
    replay the training and the gradient check (settings as build_batch_lesson's)."""
    return build_batch_lesson(*settings)


def checked_lesson() -> BatchLesson | None:
    """The lesson, or None after a message that names the broken rule."""
    state = st.session_state
    try:
        config = NetConfig(
            state[f"{P}_kernels"], state[f"{P}_ksize"], state[f"{P}_relu"], config_from_state(P)
        )
    except ValueError as error:
        st.error(f"This pooling layer is not valid: {error}.", icon=":material/error:")
        return None
    try:
        return cached_lesson(
            state[f"{P}_source"],
            state[f"{P}_size"],
            state[f"{P}_seed"],
            config,
            state[f"{P}_reduction"],
            state[f"{P}_lr"],
            state[f"{P}_steps"],
            state[f"{P}_edits"],
        )
    except ValueError as error:
        st.error(f"This network does not fit the 8×8 images: {error}.", icon=":material/error:")
        return None


def clamp_picks(lesson: BatchLesson) -> None:
    state = st.session_state
    state[f"{P}_example"] = min(state[f"{P}_example"], lesson.size - 1)
    state[f"{P}_feature"] = min(state[f"{P}_feature"], lesson.config.kernels - 1)


def publish() -> None:
    st.query_params.from_dict(snapshot(FIELDS, st.session_state))


def titles(lesson: BatchLesson, prefix: str = "") -> list[str]:
    return [f"{prefix}{n}: “{lesson.labels[n]}”" for n in range(lesson.size)]


def multiples(maps, names, kind="gradient", marks=None, annotate=True):
    """One figure per kind of map, all examples in it: 4 a row while numbers are
    written in the cells, 8 a row beyond."""
    few = len(maps) <= ANNOTATE_UP_TO
    return figures.small_multiples(
        list(maps),
        names,
        kind=kind,
        columns=4 if few else 8,
        annotate=annotate and few,
        marks=marks,
        decimals=DECIMALS,
    )


# -- views ------------------------------------------------------------------------------


def batch_view(lesson: BatchLesson) -> None:
    st.subheader(f"The batch: {lesson.size} example{'s' * (lesson.size > 1)}")
    chart(multiples(lesson.images, titles(lesson, "#"), kind="value", annotate=False))
    st.caption("Pixels from 0 (white) to 1 (dark); hover a pixel for its value.")
    if st.session_state[f"{P}_source"] == "edit":
        edit_view(lesson)


def batch_identity() -> tuple[int, int]:
    """(seed, size): which digits are in the batch; edits belong to one batch."""
    return st.session_state[f"{P}_seed"], st.session_state[f"{P}_size"]


def forget_stale_edits() -> None:
    """Another seed or size draws other digits: edits made to the old ones go."""
    state = st.session_state
    if state.get(f"{P}_edits_of") != batch_identity():
        state[f"{P}_edits"] = {}
        state[f"{P}_edits_of"] = batch_identity()


def edit_view(lesson: BatchLesson) -> None:
    state = st.session_state
    example = state[f"{P}_example"]
    seed, size = batch_identity()
    prefix = f"{P}_img{seed}_{size}_{example}"
    if f"{prefix}_base" not in state:
        set_grid(prefix, lesson.images[example])
    st.markdown(
        f"**Edit example #{example}** (pick another in *Step through the batch*). "
        "Pixels go from 0 (white) to 1 (ink)."
    )
    grid = grid_editor(prefix, "Your edits stay while this page is open; they are not in the link.")
    if grid is not None and not np.array_equal(grid, lesson.images[example]):
        state[f"{P}_edits"][example] = grid
        st.rerun()  # run the network again on the edited image


def feature_picker(lesson: BatchLesson) -> int:
    if lesson.config.kernels > 1:
        st.radio(
            "Feature map",
            list(range(lesson.config.kernels)),
            key=f"{P}_feature",
            horizontal=True,
            format_func=lambda f: f"kernel {f}",
            help="Each kernel makes its own map, pooled and routed on its own.",
        )
    return st.session_state[f"{P}_feature"]


def per_example_view(lesson: BatchLesson) -> None:
    feature = feature_picker(lesson)
    trace, grads = lesson.trace, lesson.grads
    names = titles(lesson)
    winners = [lesson.winner_cells(n, feature) for n in range(lesson.size)]
    relu = "after ReLU" if lesson.config.relu else "no ReLU"
    st.markdown(
        f"**Convolution output ({relu}): the pooling input.** Rings mark the cells "
        "that won a window; each example has its own."
    )
    chart(multiples(trace.activation[:, feature], names, kind="value", marks=winners))
    st.markdown("**Pooled output y.**")
    chart(multiples(trace.pool.output[:, feature], names, kind="value"))
    st.markdown("**dL_n/dy: what the loss sends back to each pooled cell.**")
    chart(multiples(grads.at_pool_output[:, feature], names))
    st.markdown(
        "**dL_n/d(pooling input): the same numbers, routed through each example's own winners.**"
    )
    chart(multiples(grads.at_pool_input[:, feature], names, marks=winners))
    st.markdown(f"**dL_n/dK for kernel {feature}: each example's own kernel gradient.**")
    chart(multiples(grads.per_example.kernels[:, feature, 0], names))


def step_view(lesson: BatchLesson) -> None:
    feature = st.session_state[f"{P}_feature"]
    player(
        P,
        f"{P}_example",
        lesson.size,
        "Example",
        "Add the examples to the batch one at a time.",
        lambda example: step_figures(lesson, feature, example),
        PLAY_SECONDS,
        "A batch of one: there is a single example to follow.",
    )


def step_figures(lesson: BatchLesson, feature: int, example: int) -> None:
    reached = lesson.positions_reached(feature)
    total = lesson.trace.activation[0, feature].size
    routing = lesson.grads.at_pool_input[:, feature]
    limit = figures.symmetric_range(routing)
    columns = st.columns(4)
    with columns[0]:
        chart(
            figures.grid_figure(
                lesson.images[example],
                f"#{example}: “{lesson.labels[example]}”",
                width_px=220,
                annotate=False,
            )
        )
    running = [
        (routing[example], f"#{example} routes", limit, lesson.winner_cells(example, feature)),
        (lesson.routing_running_mean(feature)[example], f"mean of #0…#{example}", limit, []),
        (lesson.kernel_running_mean(feature)[example], f"mean dL/dK, #0…#{example}", None, []),
    ]
    for column, (values, title, scale, marks) in zip(columns[1:], running, strict=True):
        with column:
            overlay = figures.Overlay(marks=marks)
            chart(
                figures.grid_figure(
                    values, title, "gradient", overlay, limit=scale, width_px=220, decimals=DECIMALS
                )
            )
    st.markdown(
        f"Example #{example} sends its gradient to **{int((routing[example] != 0).sum())}** "
        f"positions, one winner per window. Together, examples #0…#{example} have reached "
        f"**{reached[example]} of {total}** positions: every example picks its own winners."
    )
    chart(
        figures.line_figure(
            reached,
            "Positions that received any gradient",
            "examples in the batch so far",
            "positions",
            marker_at=example,
            first_x=1,
        )
    )


def result_view(lesson: BatchLesson) -> None:
    feature = st.session_state[f"{P}_feature"]
    word = "mean" if lesson.reduction == "mean" else "sum"
    left, right = st.columns(2)
    with left:
        chart(
            figures.grid_figure(
                reduce_batch(lesson.grads.at_pool_input[:, feature], lesson.reduction),
                f"{word} of the routing maps",
                "gradient",
            )
        )
        st.caption(
            f"This is the gradient of a per-position bias added to every example's "
            f"pooling input (shared by the batch). Each example's own activation "
            f"gradient stays its own: look at #{st.session_state[f'{P}_example']} in "
            f"Per example."
        )
    with right:
        chart(
            multiples(
                lesson.reduced.kernels[:, 0],
                [f"dL/dK, kernel {f}" for f in range(lesson.config.kernels)],
            )
        )
        st.caption(f"The batch kernel gradient: the {word} of the examples' dL_n/dK.")
        dead = [
            f
            for f in range(lesson.config.kernels)
            if lesson.config.relu and not (lesson.trace.conv[:, f] > 0).any()
        ]
        if dead:
            st.caption(
                f"Kernel {', '.join(map(str, dead))}: its ReLU is off at every position "
                "of every example, so no gradient gets through to it."
            )
    checks_view(lesson)


def checks_view(lesson: BatchLesson) -> None:
    st.subheader("Checked on the spot")
    count = lesson.size
    st.markdown(
        f"- **One batched backward = the {lesson.reduction} of per-example gradients**: largest "
        f"gap over every parameter {fmt(lesson.batched_gap)}.\n"
        f"- **Finite differences**: dL/dK against central differences of the batch loss "
        f"(ε = 10⁻⁶), largest gap {lesson.kernel_fd_gap:.1e}.\n"
        f"- **Mean and sum**: summing the {count} dL_n/dK and multiplying by 1/{count} gives "
        f"the mean; the two reductions differ by exactly the factor {count}."
    )
    wrong_view(lesson)
    reduction_table(lesson)


def wrong_view(lesson: BatchLesson) -> None:
    right = lesson.reduced.kernels[:, 0]
    if lesson.reduction == "sum":
        right = right / lesson.size  # compare like with like: both per example
    wrong = lesson.wrong.kernels[:, 0]
    gap = float(np.abs(wrong - right).max())
    st.markdown(
        "**The wrong way**: average the images and the error first, then back-propagate once. "
        f"The averaged image has its own winners, so its dL/dK is not the batch's: largest gap "
        f"**{fmt(gap)}**."
    )
    maps = [lesson.wrong_trace.x[0, 0], right[0], wrong[0], wrong[0] - right[0]]
    names = ["averaged image", "right", "wrong", "wrong − right"]
    left, rest = st.columns([1, 3])
    with left:
        chart(figures.grid_figure(maps[0], names[0], width_px=200, annotate=False))
    with rest:
        chart(figures.small_multiples(maps[1:], names[1:], columns=3, decimals=DECIMALS))
        st.caption(
            "Kernel 0. Right: the mean of the examples' dL_n/dK. Wrong: one backward "
            "pass through the averaged image with the averaged error."
        )


def reduction_table(lesson: BatchLesson) -> None:
    kernels = lesson.grads.per_example.kernels[:, 0, 0]  # (N, k, k), kernel 0
    total, mean = kernels.sum(axis=0).ravel(), kernels.mean(axis=0).ravel()
    rows = min(5, total.size)
    st.dataframe(
        pd.DataFrame(
            {
                "kernel 0 entry": [
                    f"K[{i // kernels.shape[2]},{i % kernels.shape[2]}]" for i in range(rows)
                ],
                "sum Σ dL_n/dK": [fmt(v, 5) for v in total[:rows]],
                f"sum × 1/{lesson.size}": [fmt(v / lesson.size, 5) for v in total[:rows]],
                "mean": [fmt(v, 5) for v in mean[:rows]],
            }
        ),
        hide_index=True,
        width="content",
    )


def training_view(lesson: BatchLesson) -> None:
    state = st.session_state
    left, middle, right = st.columns([2, 1, 1], vertical_alignment="bottom")
    left.select_slider(
        "Learning rate",
        LEARNING_RATES,
        key=f"{P}_lr",
        help="How far one step moves the weights along −dL/dθ.",
    )
    middle.button(
        "SGD step",
        key=f"{P}_step",
        icon=":material/south:",
        on_click=take_step,
        disabled=state[f"{P}_steps"] >= STEPS_MAX,
        width="stretch",
        help="θ ← θ − learning rate × (batch gradient), for every weight.",
    )
    right.button("Reset weights", key=f"{P}_reset", on_click=reset_training, width="stretch")
    losses = lesson.losses
    cells = st.columns(3)
    cells[0].metric("Steps taken", len(losses) - 1)
    cells[1].metric(
        f"Batch loss ({lesson.reduction})",
        fmt(losses[-1], 4),
        delta=None if len(losses) < 2 else round(losses[-1] - losses[-2], 4),
        delta_color="inverse",
        help="The change is from the step before.",
    )
    cells[2].metric("Before the first step", fmt(losses[0], 4))
    chart(figures.line_figure(losses, "Loss after each step", "step", "loss"))
    st.caption(
        "Pooling has no weights: the step changes the convolution kernels and biases "
        "(through the routed gradient) and the linear layer after the pool."
    )


def take_step() -> None:
    st.session_state[f"{P}_steps"] = min(st.session_state[f"{P}_steps"] + 1, STEPS_MAX)


def worked_example_view() -> None:
    st.markdown(
        "Five weights, a batch of two: each example brings its own gradient, and the "
        "batch's is their mean. Change any number."
    )
    frame = pd.DataFrame(
        SEED_GRADIENTS, columns=[f"w{i + 1}" for i in range(5)], index=["example 1", "example 2"]
    )
    edited = st.data_editor(
        frame,
        key=f"{P}_worked",
        width="content",
        column_config={c: st.column_config.NumberColumn(c, format="plain") for c in frame.columns},
    )
    try:
        grads = parse_edited(edited)
    except ValueError as error:
        st.error(str(error))
        return
    mean = grads.mean(axis=0)
    st.dataframe(
        pd.DataFrame([mean], columns=frame.columns, index=["mean = batch gradient"]).map(fmt),
        width="content",
    )
    zero = [f"w{i + 1}" for i in np.flatnonzero(np.abs(mean) < 1e-12)]
    if zero:
        st.caption(
            f"{', '.join(zero)}: the examples pull in opposite directions and cancel; "
            "this step leaves it where it is."
        )


def render() -> None:
    init_state()
    sidebar_controls()
    show_notices(P)
    forget_stale_edits()
    lesson = checked_lesson()
    publish()
    if lesson is None:
        return
    clamp_picks(lesson)
    batch_view(lesson)
    tabs = st.tabs(
        [
            "Per example",
            "Step through the batch",
            "Batch result and checks",
            "Training",
            "Five weights, two examples",
        ]
    )
    with tabs[0]:
        per_example_view(lesson)
    with tabs[1]:
        step_view(lesson)
    with tabs[2]:
        result_view(lesson)
    with tabs[3]:
        training_view(lesson)
    with tabs[4]:
        worked_example_view()
