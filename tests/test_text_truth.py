"""Every sentence the Playground and Home state about the numbers on screen, checked
against that fact computed afresh from the model, over settings that break careless
wording: max and average, each tie rule, padding and count_include_pad, ceil mode,
adaptive windows, negative and zero dL/dy."""

import json
import re
from dataclasses import replace
from itertools import product

import numpy as np
import pytest

from pooling import TIES, PoolConfig, forward
from teaching.numbers import fmt
from teaching.playground import text
from teaching.playground.model import LayerSettings, build_layer_story
from teaching.playground.ties import tie_lab

TIED = np.array(
    [[4.0, 4.0, 1.0, 0.0], [2.0, 0.0, 3.0, 3.0], [5.0, 1.0, 2.0, 2.0], [5.0, 5.0, 2.0, 0.0]]
)
INTS = np.arange(30.0).reshape(5, 6) % 7 - 2.0


def story_for(x, config, upstream=None):
    """upstream: None (all ones), a number (everywhere) or an array shaped like y."""
    x = np.asarray(x, float)
    shape = forward(x, config).output.shape
    if upstream is None:
        return build_layer_story(LayerSettings(x, config, "ones", 0))
    grad = np.broadcast_to(np.asarray(upstream, float), shape).copy()
    return build_layer_story(LayerSettings(x, config, "custom", 0, grad))


def configs():
    """Max under each tie rule, with and without padding; average with and without
    count_include_pad, a divisor override and ceil mode."""
    for ties, padding in product(TIES, (0, 1)):
        yield PoolConfig("max", 2, stride=1, padding=padding, ties=ties)
        yield PoolConfig("max", 3, stride=2, padding=padding, ties=ties, ceil_mode=True)
    for include, padding in product((True, False), (0, 1)):
        yield PoolConfig("avg", 3, stride=2, padding=padding, count_include_pad=include)
        yield PoolConfig(
            "avg", 2, stride=2, padding=padding, count_include_pad=include, ceil_mode=True
        )
    yield PoolConfig("avg", 3, stride=1, padding=1, divisor_override=4)


UPSTREAMS = (None, -1.5, 0.0, "random")


def stories():
    rng = np.random.default_rng(0)
    for config, upstream, x in product(configs(), UPSTREAMS, (TIED, INTS)):
        if upstream == "random":
            shape = forward(x, config).output.shape
            upstream = np.round(rng.uniform(-2, 2, shape), 1)
        yield story_for(x, config, upstream)


ALL = list(stories())
BOLD = re.compile(r"\*\*([^*]+)\*\*")


# -- the Playground ------------------------------------------------------------------------


@pytest.mark.parametrize("upstream", [2.0, -2.0, 0.0])
def test_the_all_rule_is_described_truly_for_any_sign(upstream):
    story = story_for([[4.0, 1.0], [4.0, 0.0]], PoolConfig("max", 2, ties="all"), upstream)
    warning = text.inflation_warning(story)
    assert "cannot add up to more" not in warning and "more than" not in warning
    assert "k times its dL/dy" in warning
    sent, total = story.grad_output.sum(), story.grad_x.sum()
    assert total == 2 * sent  # two tied cells, each given the whole dL/dy
    if upstream:
        assert f"adds up to {fmt(total)} while the windows send {fmt(sent)}" in warning
        assert "adds up to exactly what is sent" in warning
    else:
        assert "dL/dy is 0" in warning and "comes out right" in warning
    step = text.step_sentence(story, (0, 0))
    assert "more than dL/dy" not in step and "wrong on purpose" in step
    if upstream:
        assert f"2 × {fmt(upstream)} = **{fmt(2 * upstream)}**" in step


def test_the_all_rule_says_when_mixed_signs_only_hide_it():
    x = np.array([[4.0, 4.0, 1.0, 1.0]])
    story = story_for(x, PoolConfig("max", (1, 2), ties="all"), [[1.0, -1.0]])
    assert story.sums_agree and story.tied_windows_sending == 2
    assert "only because the extra amounts cancel" in text.inflation_warning(story)


@pytest.mark.parametrize("story", ALL, ids=lambda story: str(story.config))
def test_each_step_sentence_states_what_its_window_sends(story):
    for out_cell in np.ndindex(*story.output_shape):
        sentence = text.step_sentence(story, out_cell)
        sent = story.sent_by(out_cell)
        upstream = story.grad_output[out_cell]
        bold = BOLD.findall(sentence)[-1]
        receivers = story.receivers(out_cell)
        if story.config.mode == "avg":
            real = story.window_cells(out_cell, real_only=True)
            assert f"each of its {len(real)} real cells" in sentence
            assert {fmt(sent[cell]) for cell in real} == {bold}
            continue
        tied = [
            c
            for c in story.window_cells(out_cell, real_only=True)
            if story.x[c] == story.output[out_cell]
        ]
        if len(tied) > 1:
            assert "tied between " + ", ".join(f"x[{r},{c}]" for r, c in tied) in sentence
            assert "only that cell moves y" not in sentence  # any tied cell moves it
            if story.config.ties == "all":
                assert bold == fmt(len(tied) * upstream) == fmt(sent.sum())
            elif story.config.ties != "all":
                assert bold == fmt(sent.sum()) == fmt(upstream)
            continue
        (winner,) = receivers
        assert bold == fmt(sent[winner]) == fmt(upstream)
        others = len(story.window_cells(out_cell, real_only=True)) - 1
        if others:
            assert f"the other {others} cell" in sentence
            assert np.count_nonzero(sent) <= 1  # the others do get 0


@pytest.mark.parametrize("story", ALL[::3], ids=lambda story: str(story.config))
def test_the_coverage_caption_counts_what_it_says(story):
    caption = text.coverage_caption(story)
    most, unread = int(story.coverage.max()), int((story.coverage == 0).sum())
    if most > 1:
        assert f"up to {most} here" in caption
    else:
        assert "No two windows share a cell" in caption
        assert (np.count_nonzero(story.shares, axis=(0, 1)) <= 1).all()
    if unread:
        assert f"{unread} cell" in caption
        assert (story.grad_x[story.coverage == 0] == 0).all()
    else:
        assert "read by no window" not in caption


@pytest.mark.parametrize("story", ALL[::2], ids=lambda story: str(story.config))
def test_the_matrix_sentence_says_where_y_equals_j_x(story):
    sentence = text.matrix_sentence(story)
    assert "For this x the layer is linear" not in sentence
    matrix = story.matrix
    holds_here = np.allclose(matrix @ story.x.ravel(), story.output.ravel())
    if story.config.mode == "avg":
        assert "linear: **y = J x** for every x" in sentence
        other = np.random.default_rng(1).normal(size=story.x.shape)
        assert np.allclose(matrix @ other.ravel(), forward(other, story.config).output.ravel())
    elif story.tied_windows and story.config.ties == "all":
        assert "J x is not even y there" in sentence and not holds_here
    else:
        assert holds_here
        said = "around this x" if not story.tied_windows else "holds at this x"
        assert said in sentence


def test_the_same_y_sentence_counts_the_cells_that_differ():
    from teaching.playground.model import same_y_settings

    for upstream in (2.5, -1.0, 0.0):
        story = story_for([[1, 3], [2, 0.5]], PoolConfig("max", 2), upstream)
        same_y = build_layer_story(same_y_settings(story))
        differ = int((story.grad_x != same_y.grad_x).sum())
        sentence = text.same_y_sentence(story, same_y)
        assert np.array_equal(story.output, same_y.output) and "the same y" in sentence
        if differ:
            assert f"differ in {differ} cells" in sentence
        else:
            assert "agree too" in sentence and "differ in" not in sentence


@pytest.mark.parametrize("upstream", [1.0, -2.0, 0.0])
def test_the_tie_lab_calls_valid_only_the_splits_that_are_gradients(upstream):
    story = story_for(TIED, PoolConfig("max", 2), upstream)
    sentence = text.tie_lab_sentence(story)
    assert f"{story.tied_windows} windows hold a tie" in sentence
    assert "between 0 and 1" in sentence and "adding up to 1" in sentence
    rows, _ = tie_lab(story)
    caption = text.tie_lab_caption(rows)
    # dL/dt on screen is the shift test's own number: the sum of dL/dy over the windows.
    assert rows[0].slope == pytest.approx(story.grad_output.sum(), abs=1e-6)
    assert f"add up to dL/dt = {fmt(rows[0].slope)}" in caption
    for row in rows:
        failed = f"“{row.ties}” adds up to {fmt(row.total)} and fails"
        assert (failed in caption) == (not row.total_matches)
    first = next(row for row in rows if row.ties == "first")
    if upstream:  # a window with a tie sends dL/dy: central differences see the corner
        assert not first.matches_central
        assert "disagree with every one-winner rule, PyTorch's included" in caption
        assert ("no rule matches" in caption) == (not any(r.matches_central for r in rows))
    else:
        assert all(row.matches_central for row in rows)
        assert "agree with every rule" in caption
    for row in rows:
        shares = story_for(TIED, replace(story.config, ties=row.ties), upstream).shares
        valid = (shares >= 0).all() and np.allclose(shares.sum(axis=(2, 3)), 1)
        assert valid == (row.ties != "all")
        if row.ties != "all":
            assert row.total_matches  # a valid split is a true gradient's total
        elif upstream:
            assert not row.total_matches


# -- the step-through counts windows from 1, and old links open the same window ---------------


def test_the_step_title_counts_from_1_and_old_links_still_work():
    from apptest import component_data, figure_titled, no_exceptions, open_app

    overlap = {"x": "1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8", "kh": "2", "kw": "2", "sh": "1", "sw": "1"}
    app = open_app("screens/playground.py", {**overlap, "tab": "step", "step": "3"})
    assert no_exceptions(app)
    assert component_data(app, "pg_frames")["position"] == 3 and app.session_state["pg_step"] == 3
    assert figure_titled(app, "dL/dx after 4 of 9 windows")
    assert figure_titled(app, "x: the window of y[1,0]")  # position 3 in reading order, as before
    app.session_state["pg_step"] = 6  # the browser's player moved there
    app.run()
    assert app.query_params["step"] == "6"
    assert figure_titled(app, "dL/dx after 7 of 9 windows")


@pytest.mark.parametrize("story", ALL[::5], ids=lambda story: str(story.config))
def test_the_ledger_caption_counts_readers_and_senders(story):
    for cell in [(0, 0), (1, 2), (story.x.shape[0] - 1, story.x.shape[1] - 1)]:
        caption = text.ledger_caption(story, cell)
        read = int((story.shares[:, :, cell[0], cell[1]] != 0).sum())
        windows = int(story.coverage[cell])
        assert caption.startswith(f"x[{cell[0]},{cell[1]}] is read by {windows} window")
        assert f"; {read} of them give{'s' * (read == 1)} it a share" in caption
        assert "send it something" not in caption  # a share of a dL/dy of 0 sends nothing
        total = sum(line.amount for line in story.ledger(cell))
        assert total == pytest.approx(story.grad_x[cell], abs=1e-12)


@pytest.mark.parametrize("story", ALL[::4], ids=lambda story: str(story.config))
def test_the_input_caption_speaks_of_padding_and_winners_only_when_there_are_some(story):
    caption = text.input_caption(story)
    assert ("grey cells are padding" in caption) == any(story.config.padding)
    assert ("won a window" in caption) == (story.config.mode == "max")
    if any(story.config.padding):
        assert f"reads {'−∞' if story.config.mode == 'max' else '0'} there" in caption


# -- on screen: the views place the sentences tested above, for the settings on screen -------

TIED_LINK = {"x": "4,4,1,0;2,0,3,3;5,1,2,2;5,5,2,0", "ties": "all", "g": "custom"}


def screen_text(app) -> str:
    """The page's sentences, and those the step-through's player shows at its step."""
    kinds = ("markdown", "caption", "warning", "error", "info", "success")
    said = [str(e.value) for kind in kinds for e in app.get(kind)]
    for element in app.get("bidi_component"):
        player = json.loads(element.proto.json)
        if player.get("frames"):
            words = player["frames"]["words"][player["position"]]
            said += [words["sentence"], words["line"]]
    return "\n".join(said)


def test_the_playground_says_true_things_about_all_with_a_negative_dl_dy():
    from apptest import no_exceptions, open_app

    upstream = np.array([[-1.5, 2.0], [0.0, -1.0]])
    story = story_for(TIED, PoolConfig("max", 2, ties="all"), upstream)
    query = {**TIED_LINK, "gy": "-1.5,2;0,-1"}
    for tab, said in (
        ("forward", text.inflation_warning(story)),
        ("step", text.step_sentence(story, (0, 0))),
        ("matrix", text.matrix_sentence(story)),
        ("ties", text.tie_lab_sentence(story)),
    ):
        app = open_app("screens/playground.py", {**query, "tab": tab})
        assert no_exceptions(app), tab
        shown = screen_text(app)
        assert said in shown, tab
        assert "more than dL/dy" not in shown and "cannot add up to more" not in shown
    # x[0,0] and x[0,1] tie in y[0,0], whose dL/dy is −1.5: "all" hands out −3.
    assert "2 × −1.5 = **−3**" in text.step_sentence(story, (0, 0))
    windows = TIED.reshape(2, 2, 2, 2).transpose(0, 2, 1, 3).reshape(2, 2, 4)
    tied = (windows == windows.max(axis=-1, keepdims=True)).sum(axis=-1)  # k per window
    assert tied.tolist() == [[2, 2], [3, 3]]
    assert story.grad_x.sum() == pytest.approx((tied * upstream).sum())  # k times each dL/dy
    assert (
        f"adds up to {fmt((tied * upstream).sum())} while the windows send"
        in text.inflation_warning(story)
    )


@pytest.mark.parametrize("ties", TIES)
def test_adaptive_max_pooling_speaks_of_its_ties_without_failing(ties):
    config = PoolConfig("max", output_size=(2, 2), ties=ties)
    story = story_for(TIED, config, -1.0)
    assert story.tied_windows == 4  # each quarter of TIED holds its maximum twice or more
    assert "Here 4 window(s) hold a tie" in text.matrix_sentence(story)
    rows, _ = tie_lab(story)
    assert [row.ties for row in rows] == list(TIES)
