"""Every tolerance the lab compares numbers with, each named for what it absorbs."""

# A typed answer is right when it rounds to the answer at two decimals.
ANSWER_ROUNDING = 0.005

# Central differences with a step of 1e-6 land this close to the slope of a rule; a tie's
# corner is where they disagree by far more.
GRADIENT_CHECK = 1e-6

# The same float64 sum taken in another order (PyTorch's loop, a batch mean) differs by
# crumbs this small: below it two results are equal and a sum is zero.
SUMMATION_ORDER = 1e-12
