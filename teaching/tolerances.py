"""Every tolerance the lab compares numbers with, each named for what it absorbs."""

# "Two decimals are enough": a typed answer is right within a hundredth of the answer,
# so 2/3 may be typed 0.66 (cut short) or 0.67 (rounded). Any number that rounds to the
# answer at two decimals lies closer than this. `close_enough` is the one rule.
ANSWER_ROUNDING = 0.01

# Central differences with a step of 1e-6 land this close to the slope of a rule; a tie's
# corner is where they disagree by far more.
GRADIENT_CHECK = 1e-6

# The same float64 sum taken in another order (PyTorch's loop, a batch mean) differs by
# crumbs this small: below it two results are equal and a sum is zero.
SUMMATION_ORDER = 1e-12


def close_enough(given: float, answer: float) -> bool:
    """A typed answer is right: within ANSWER_ROUNDING of the answer (the float error of
    the subtraction itself, e.g. 0.51 - 0.5 = 0.010000000000000009, forgiven)."""
    return abs(given - answer) <= ANSWER_ROUNDING + SUMMATION_ORDER * max(1.0, abs(answer))
