"""What each example adds to the batch's reach, in words, with the counts computed
(pure: the Batch step-through's sentences)."""

from __future__ import annotations

from teaching.batch.story import BatchStory


def shared_map_words(reduction: str) -> str:
    """What the running “mean (or sum) of #0…#n” map is: not one example's gradient split
    over cells, but what a weight shared per position receives."""
    return (
        f"The “{reduction} of #0…#n” map is what a weight shared per position gets, such "
        "as a bias added to every example's pooling input; no example splits its gradient."
    )


SHARED_MAP_TITLE = "a shared weight's gradient"  # the lecture screen's short name for it


def step_sentence(story: BatchStory, feature: int, example: int) -> str:
    """What example `example` adds to the batch's reach, with the counts computed."""
    routed = story.positions_routed(example, feature)
    reached = story.positions_reached(feature)[example]
    total = story.positions
    who = (
        "So far, example #0 alone has" if example == 0 else f"Together, examples #0…#{example} have"
    )
    so_far = f"{who} reached **{reached} of {total}** positions"
    if story.is_max:
        return (
            f"Example #{example} sends nonzero gradient to **{routed}** positions, every one "
            f"a cell that won one of its windows. {so_far}: each example picks its own winners."
        )
    read = story.read_positions
    where = (
        "every cell its windows read"
        if routed == read
        else f"{routed} of the {read} cells its windows read (the others' shares add up to 0)"
    )
    said = f"Example #{example} spreads nonzero gradient over **{routed}** positions: {where}."
    if example == 0:
        return f"{said} {so_far}."
    same = (
        "the same positions for every example so far; only the amounts differ"
        if story.same_positions(feature, example)
        else "not the same positions for every example, as some shares add up to 0"
    )
    return f"{said} {so_far}: {same}."
