"""The Training tab's frames (ui/batch/train_frames.py): each frame the browser draws
is the figure the server builds for that step (the loss curve, the kernels, the
words); the run comes in blocks of 20 that grow, stop at 200 steps and end where a
learning rate runs away, saying so."""

from __future__ import annotations

import json

import numpy as np
import pytest
import streamlit as st
from plotly.io.json import to_json_plotly
from test_batch_model import settings

from cnn.network import NetConfig
from pooling import PoolConfig
from teaching.batch.story import start_trajectory
from teaching.batch.train_words import divergence_text, losses_sentence
from teaching.numbers import fmt
from ui.batch import state as batch_state
from ui.batch.cache import stream_id
from ui.batch.train_frames import (
    BLOCK,
    LIMIT_TEXT,
    STEPS_MAX,
    KernelFrames,
    KernelLook,
    kernel_arguments,
    kernels_fit,
    loss_arguments,
    run_states,
    short_divergence_text,
    training_block,
)
from ui.figures.curves import line_figure
from ui.figures.mosaic import small_multiples

DESK = KernelLook(width_px=250, colour_bar=True, lecture=False)
PROJECTOR = KernelLook(width_px=480, colour_bar=False, lecture=True)
KEYS = ("loss", "kernels")
# A learning rate that runs away after two finite steps (found by the engine: step 3).
RUNAWAY = dict(learning_rate=1.0, size=2, network=NetConfig(2, 3, False, PoolConfig("max", 2)))


def block_of(chosen, last: int, look: KernelLook = DESK):
    states = run_states(start_trajectory(chosen), last)
    block = training_block(
        states,
        KernelFrames(look),
        keys=KEYS,
        rate=chosen.learning_rate,
        reduction=chosen.reduction,
    )
    return states, block


def drawn_traces(figure) -> dict:
    """A figure's traces by name, as the browser receives them."""
    return {t["name"]: t for t in json.loads(to_json_plotly(figure.to_dict()))["data"]}


@pytest.mark.parametrize("look", [DESK, PROJECTOR], ids=["desk", "projector"])
def test_every_frame_draws_the_servers_figures_of_its_step(look):
    chosen = settings(network=NetConfig(3, 3, True, PoolConfig("max", 2)))
    states, block = block_of(chosen, 30, look)
    line = next(chart for chart in block.charts if chart["key"] == "loss")["line"]
    kernels = next(chart for chart in block.charts if chart["key"] == "kernels")
    for step, reached in enumerate(states):
        assert reached.taken == step
        curve, now = line_figure(**loss_arguments(reached.losses)).data
        np.testing.assert_allclose(line["y"][: step + 1], curve.y, rtol=1e-5)  # 6 digits sent
        assert line["x"][: step + 1] == list(curve.x) and now.x[0] == line["x"][step]
        server = drawn_traces(small_multiples(**kernel_arguments(reached, block.fitted, look)))
        for name, frames in kernels["traces"].items():
            for attribute, value in frames[step].items():
                assert server[name][attribute] == value, (step, name, attribute)
        assert kernels["traces"]["titles"][step]["text"] == [
            f"K{f} after step {step}" for f in range(3)
        ]
        # The numbers written are the kernel's own, to the decimals every frame keeps.
        rows = server["value"]["text"]
        written = [float(t.replace("−", "-").replace("≈", "")) for row in rows for t in row if t]
        values = reached.params.kernels[:, 0].ravel()
        assert np.allclose(
            sorted(written), sorted(values), atol=0.51 * 10.0**-block.fitted.decimals
        )


def test_every_frame_says_its_losses_and_the_last_why_it_stops():
    states, block = block_of(settings(), STEPS_MAX)
    assert len(block.words) == STEPS_MAX + 1 and block.final
    for step in (0, 1, 12, STEPS_MAX):
        losses = states[step].losses
        assert block.words[step]["sentence"] == losses_sentence("mean", losses)
    assert block.words[0]["sentence"] == (
        f"Batch loss (mean) after 0 steps: **{fmt(states[0].losses[0], 4)}**, before any step."
    )
    change = states[12].losses[12] - states[12].losses[11]
    assert (
        f"after 12 steps: **{fmt(states[12].losses[12], 4)}** ({fmt(change, 4)} from"
        in (block.words[12]["sentence"])
    )
    assert change < 0  # a drop: said with its minus sign
    assert [i for i, w in enumerate(block.words) if "note" in w] == [STEPS_MAX]
    assert block.words[-1]["note"] == {"kind": "info", "text": LIMIT_TEXT}


@pytest.mark.parametrize("look", [DESK, PROJECTOR], ids=["desk", "projector"])
def test_a_runaway_rate_ends_the_run_at_its_last_finite_step_and_says_so(look):
    chosen = settings(**RUNAWAY)
    states, block = block_of(chosen, BLOCK, look)
    last = states[-1]
    assert block.final and last.diverged_at == len(states) < BLOCK
    assert all(np.isfinite(last.losses)) and last.taken == last.diverged_at - 1
    words = block.words[-1]
    said = (
        short_divergence_text(last, reduction="mean")
        if look.lecture
        else divergence_text(last, rate=1.0, reduction="mean")
    )
    assert words["note"] == {"kind": "error", "text": said}
    assert f"Step {last.diverged_at} ran away" in said and f"after step {last.taken}" in said
    assert all("note" not in w for w in block.words[:-1])
    # Asking for more computes no more: the run ends there.
    assert len(run_states(start_trajectory(chosen), 2 * BLOCK)) == len(states)


def test_the_kernels_of_every_frame_share_one_layout_fitted_over_the_run():
    states, block = block_of(settings(), 60)
    fitted = kernels_fit(states, DESK)
    assert fitted == block.fitted
    layouts = set()
    for state in states:
        layout = small_multiples(**kernel_arguments(state, fitted, DESK)).layout
        layouts.add(layout.update(meta=None).to_json())  # meta: the frame's text twin
    assert len(layouts) == 1


def test_blocks_grow_by_twenty_in_one_stream_up_to_two_hundred(monkeypatch):
    monkeypatch.setattr(st, "session_state", {batch_state.STATE.train_steps: 5})  # the link's
    chosen = settings()
    stream = stream_id(chosen, DESK)
    assert stream == stream_id(settings(steps=35), DESK)  # the step is not the run
    assert stream != stream_id(settings(learning_rate=0.3), DESK)  # another rate is
    trajectory = start_trajectory(chosen)
    upto = batch_state.train_frames_wanted(stream)
    counts = []
    while True:
        states = run_states(trajectory, upto)
        counts.append(len(states))
        if len(states) - 1 >= STEPS_MAX:
            break
        batch_state.on_train_more(stream, len(states))  # the browser asks, once a block
        upto = batch_state.train_frames_wanted(stream)
    assert counts == [5 + 21 + BLOCK * n for n in range(9)] + [STEPS_MAX + 1]  # no more
    batch_state.on_train_more("another run", 21)  # a block asked for an old stream
    assert batch_state.train_frames_wanted(stream) == STEPS_MAX


def test_a_link_to_a_step_starts_its_first_block_twenty_past_it(monkeypatch):
    monkeypatch.setattr(st, "session_state", {batch_state.STATE.train_steps: 150})
    assert batch_state.train_frames_wanted("run") == 150 + BLOCK
    st.session_state[batch_state.STATE.train_steps] = 195
    assert batch_state.train_frames_wanted("another run") == STEPS_MAX
    batch_state.on_train_moved(250)
    assert st.session_state[batch_state.STATE.train_steps] == STEPS_MAX
